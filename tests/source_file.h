// A readable source file held in memory, for frontend tests that build a SourceSet by hand.
#pragma once

#include <string>
#include <utility>

#include "analyzer/source/source.h"

namespace sbr::test {

inline SourceFile file_of(FileId id, std::string path, FileType type, std::string bytes) {
  SourceFile f;
  f.id = id;
  f.path = std::move(path);
  f.type = type;
  f.bytes = std::move(bytes);
  f.readable = true;
  return f;
}

}  // namespace sbr::test
