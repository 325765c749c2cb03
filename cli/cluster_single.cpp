// cli/cluster.hpp without MPI (-DPPL_MPI=OFF, the default): one process does everything.
#include "cli/cluster.hpp"

namespace ppl::cli {

int run_in_group(int, char**, const std::function<int()>& command) { return command(); }
int process_rank() { return 0; }
int process_count() { return 1; }
void agree_to_start() {}
bool processes_share_chains(int) { return false; }
inference::chain_spread* spread_chains(int) { return nullptr; }
std::vector<std::string> gather_pieces(const std::string& mine) { return {mine}; }

}  // namespace ppl::cli
