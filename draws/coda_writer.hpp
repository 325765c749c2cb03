#pragma once
// JAGS's CODA files (what its `coda` command writes, which R's coda::read.coda and
// read.openbugs read) from a table of draws: STEMindex.txt with a line `name first last`
// per column, and per chain STEMchainC.txt with `iteration  value` lines, every draw of the
// first column, then of the second, ...; each array's elements in column-major order, as
// JAGS names them (theta[1,1], theta[2,1], ...). A run's rows arrive draw by draw, so they go to a
// file in ppl's layout first, and this transposes it at the run's end, a batch of columns
// at a time through draws_source (bounded memory).
//
// lp__ and the sampler's columns (names ending in "__") are left out, as JAGS has none
// of them; they stay in the ppl-layout file. Each file is written to FILE.tmp and renamed
// once all are whole, the chains first and the index last, so a reader that starts from
// the index never meets half a set.
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "draws/reader.hpp"
#include "draws/writer.hpp"  // write_error

namespace ppl::draws {

// Where draw k (1-based) of a chain was made: iteration warmup + k * thin, which is the
// number JAGS writes beside a value.
struct coda_iterations {
  long warmup = 0;
  long thin = 1;
};

// Writes the CODA files of `stem` (draws/draws.hpp's coda_paths). `stop` is asked
// between batches: when it says true (Ctrl-C), the temporaries are removed and this
// returns false with no file written. Throws write_error when a file cannot be written
// (nothing of the stem is left then), std::invalid_argument when the chains differ in
// length (one index cannot describe them). `budget`: the values read at once.
// `spelled` renames variables in the index (a BUGS model's alpha_c as its text spells it,
// alpha.c); the draws file keeps ppl's names.
bool write_coda(const draws_source& source, const std::string& stem, coda_iterations at,
                const std::function<bool()>& stop = [] { return false; }, std::size_t budget = draws_budget,
                const std::map<std::string, std::string>& spelled = {});


}  // namespace ppl::draws
