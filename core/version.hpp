#pragma once
namespace ppl {
// The program's version, as written into draws files and `ppl --version`.
const char* version();
}  // namespace ppl
