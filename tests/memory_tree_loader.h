// A directory on disk copied into a MemoryTree (files, directories, symlinks with their
// target text, anything else as a special entry): fixtures run through the in-memory tree.
#pragma once

#include <string>

#include "analyzer/source/memory_tree.h"

namespace sbr::test {

MemoryTree load_memory_tree(const std::string& dir);

}  // namespace sbr::test
