// The registration table of every built-in function and operator: a name and the group
// that implements it (stdlib/function_groups.hpp). Adding a function is a row here and a
// row, or a class, in its group's file.
#include <algorithm>

#include "stdlib/function_groups.hpp"
#include "stdlib/library.hpp"

namespace ppl::stdlib {

namespace {

struct builtin {
  std::string_view name;
  function_factory make;
};

// Sorted by name (byte order).
constexpr builtin builtin_table[] = {
    {"!", make_operator},
    {"!=", make_operator},
    {"%", make_operator},
    {"&&", make_operator},
    {"'", make_transpose},
    {"*", make_product},
    {"+", make_operator},
    {"-", make_operator},
    {".*", make_operator},
    {"./", make_operator},
    {"/", make_operator},
    {"<", make_operator},
    {"<=", make_operator},
    {"==", make_operator},
    {">", make_operator},
    {">=", make_operator},
    {"^", make_math_function},
    {"abs", make_math_function},
    {"dot", make_dot},
    {"exp", make_math_function},
    {"expm1", make_math_function},
    {"inv_logit", make_math_function},
    {"length", make_length},
    {"log", make_math_function},
    {"log1p", make_math_function},
    {"log_sum_exp", make_reduction},
    {"logit", make_math_function},
    {"max", make_reduction},
    {"mean", make_reduction},
    {"min", make_reduction},
    {"neg", make_operator},
    {"pow", make_math_function},
    {"rep", make_rep},
    {"sd", make_reduction},
    {"softmax", make_softmax},
    {"softplus", make_math_function},
    {"sqrt", make_math_function},
    {"sum", make_reduction},
    {"tanh", make_math_function},
    {"transpose", make_transpose},
    {"||", make_operator},
};

static_assert(std::ranges::is_sorted(builtin_table, {}, &builtin::name), "keep builtin_table sorted by name");

}  // namespace

void register_functions(registry& r) {
  for (const builtin& b : builtin_table) r.add(b.make(b.name));
}

}  // namespace ppl::stdlib
