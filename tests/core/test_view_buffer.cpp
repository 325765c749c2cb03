// core/tensor.hpp's view_buffer: views on the stack, constructed as they are added.
#include <doctest/doctest.h>

#include "core/tensor.hpp"

namespace test_view_buffer {

TEST_CASE("a view_buffer holds the views pushed, in order, and spans exactly those") {
  const double a[] = {1, 2, 3}, b[] = {4};
  ppl::view_buffer<8> v;
  CHECK(v.size() == 0);
  CHECK(v.span().empty());
  v.push_back({a, ppl::shape::vector(3)});
  v.push_back({b, ppl::shape::scalar()});
  REQUIRE(v.size() == 2);
  const auto s = v.span();
  REQUIRE(s.size() == 2);
  CHECK(s[0].data == a);
  CHECK(s[0].size() == 3);
  CHECK(s[1].scalar() == 4);
  v[0] = {b, ppl::shape::scalar()};  // replaced in place, as the per-row loops do
  CHECK(v.span()[0].data == b);
  CHECK(v.span()[0].shape.rank == 0);
}

}  // namespace test_view_buffer
