// The fuzz targets without libFuzzer, for CI: `sbreview_fuzz_smoke TARGET CORPUS_DIR RUNS` runs
// TARGET on every seed in CORPUS_DIR, then RUNS inputs made from the seeds by deterministic
// mutations (bytes flipped, inserted, deleted, duplicated; seeds spliced), and fails on the
// first exception that escapes. Same seed, same inputs: a failure reproduces. Under the
// sanitizer presets it also catches memory errors; the long campaigns use libFuzzer
// (scripts/fuzz.sh).
#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/fuzz/targets.h"

namespace {

std::vector<std::string> read_seeds(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) paths.push_back(e.path());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> seeds;
  for (const auto& p : paths) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    seeds.push_back(s.str());
  }
  return seeds;
}

// One mutation of `in`, drawn from `rng`.
std::string mutate(std::string in, const std::vector<std::string>& seeds, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); };
  static const std::string kTokens[] = {"\n", "  ",   "- ", ": ",  "{{", "}}",
                                        "$(", ")",    "${", "}",   "'",  "\"",
                                        "\\", "\xff", "*a", "&a ", "[[", std::string(1, '\0')};
  int edits = 1 + static_cast<int>(rng() % 8);
  for (int i = 0; i < edits; ++i) {
    switch (rng() % 6) {
      case 0:
        if (!in.empty()) in[pick(in.size())] ^= static_cast<char>(1u << (rng() % 8));
        break;
      case 1:
        in.insert(pick(in.size() + 1), kTokens[pick(std::size(kTokens))]);
        break;
      case 2:
        if (!in.empty()) in.erase(pick(in.size()), 1 + pick(16));
        break;
      case 3: {  // duplicate a slice: nesting, repetition
        if (in.empty()) break;
        size_t at = pick(in.size()), len = 1 + pick(std::min<size_t>(in.size() - at, 64));
        in.insert(at, in.substr(at, len));
        break;
      }
      case 4: {  // splice in part of another seed
        const std::string& other = seeds[pick(seeds.size())];
        if (other.empty()) break;
        size_t at = pick(other.size());
        in.insert(pick(in.size() + 1), other.substr(at, 1 + pick(256)));
        break;
      }
      default:
        if (!in.empty()) in.resize(pick(in.size()));
    }
  }
  return in;
}

bool run_one(const sbr::fuzz::TargetInfo& t, const std::string& input, const std::string& what) {
  try {
    t.run(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    return true;
  } catch (const std::exception& e) {
    std::cerr << "fuzz " << t.name << ": " << what << ": exception escaped: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "fuzz " << t.name << ": " << what << ": unknown exception escaped\n";
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: sbreview_fuzz_smoke TARGET CORPUS_DIR RUNS\n";
    return 2;
  }
  const sbr::fuzz::TargetInfo* target = sbr::fuzz::find_target(argv[1]);
  if (!target) {
    std::cerr << "unknown target " << argv[1] << " (" << sbr::fuzz::target_names() << ")\n";
    return 2;
  }
  std::vector<std::string> seeds = read_seeds(argv[2]);
  if (seeds.empty()) {
    std::cerr << "no seeds in " << argv[2] << "\n";
    return 2;
  }
  for (size_t i = 0; i < seeds.size(); ++i) {
    if (!run_one(*target, seeds[i], "seed " + std::to_string(i))) return 1;
  }
  std::mt19937_64 rng(0x5b12e71e);
  long runs = std::stol(argv[3]);
  for (long r = 0; r < runs; ++r) {
    std::string input = mutate(seeds[rng() % seeds.size()], seeds, rng);
    if (!run_one(*target, input, "mutation " + std::to_string(r))) {
      std::ofstream(std::string("crash-") + argv[1] + "-" + std::to_string(r), std::ios::binary)
          << input;
      return 1;
    }
  }
  std::cout << target->name << ": " << seeds.size() << " seeds and " << runs << " mutations\n";
  return 0;
}
