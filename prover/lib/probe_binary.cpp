#include "prover/lib/probe_binary.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace sbr::prove {

std::vector<std::string> probe_candidates(const std::string& exe) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(exe).parent_path();
  return {(dir / ".." / "libexec" / "sbreview" / kProbeFileName).lexically_normal().string(),
          (dir / kProbeFileName).lexically_normal().string()};
}

Result<std::string> read_probe(const std::string& exe) {
  std::string looked;
  for (const std::string& path : probe_candidates(exe)) {
    looked += (looked.empty() ? "" : ", ") + path;
    std::ifstream in(path, std::ios::binary);
    if (!in) continue;
    std::stringstream bytes;
    bytes << in.rdbuf();
    std::string b = bytes.str();
    // Anything else would be imported as the probe and fail inside every launch.
    if (b.compare(0, 4, "\177ELF") != 0) {
      return Error{path + " is not an executable (ELF) file"};
    }
    return b;
  }
  return Error{"the probe (" + std::string(kProbeFileName) + ") is not installed: looked for " +
               looked};
}

std::string self_executable() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

}  // namespace sbr::prove
