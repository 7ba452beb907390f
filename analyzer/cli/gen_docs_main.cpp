// Build-time generator, not installed: `sbreview_gen_docs man USAGE_MD DOC_DIR OUT` writes the
// man page from the command's usage text and docs/usage.md (analyzer/cli/man_page.h).
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "analyzer/cli/man_page.h"
#include "analyzer/cli/options.h"

int main(int argc, char** argv) {
  if (argc != 5 || std::string(argv[1]) != "man") {
    std::cerr << "usage: sbreview_gen_docs man USAGE_MD DOC_DIR OUT\n";
    return 2;
  }
  std::ifstream in(argv[2]);
  if (!in) {
    std::cerr << "sbreview_gen_docs: cannot read " << argv[2] << "\n";
    return 2;
  }
  std::stringstream markdown;
  markdown << in.rdbuf();
  std::ofstream out(argv[4]);
  sbr::write_man_page(sbr::parse_usage(sbr::kUsage), markdown.str(), argv[3], out);
  if (!out.flush()) {
    std::cerr << "sbreview_gen_docs: cannot write " << argv[4] << "\n";
    return 2;
  }
  return 0;
}
