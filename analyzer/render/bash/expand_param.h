// One `${...}` as written, shared by the two halves of parameter expansion: finding its value
// (expand_param.cpp) and applying its operator (expand_param_ops.cpp).
#pragma once

#include <string>
#include <vector>

#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

struct Evaluator::ParamRef {
  std::string name;
  std::string index;  // "@", "*", a number or a key
  bool length = false, indirect = false;
  std::string op;  // the operator as written: `:-`, `##`
  std::vector<TSNode> operands;
  TSNode index_node{};
  bool all = false;    // every element ("$@", "${a[*]}")
  bool is_set = true;  // false: unset, or unknown (defaults apply as the default guess)
  // Whether the parameter is set on each alternative's path (parallel to the value's
  // alternatives; the first is is_set).
  std::vector<bool> set_on;
};

// A word whose value the script leaves open, named by where it comes from ("length of x").
EWord symbolic_word(std::string origin);

}  // namespace sbr::bash
