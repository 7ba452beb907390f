// Several paths of one construct merged into one state: the items of a `case`, or the runs of
// a function called with argument lists that differ by path (path_budget.cpp).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "analyzer/render/bash/evaluator.h"

namespace sbr::bash {

// The states of a `case` on an unknown value, merged into one. The base is the default path's
// state (the item the default value takes, or the state before the `case` when no item is the
// default path); every other item is merged into it as a path of its own, so that each item's
// values are alternatives under that item's condition. Items that run before the default
// item wait until it has run: the script's commands are evaluated in the script's order.
class PathMerge {
 public:
  // `real`: the base is a path (the default item's state, or "no item matched"), not only a
  // stand-in for the values the variables had before the `case`.
  void start(State base, const Condition& cond, bool real) {
    acc_ = std::move(base);
    acc_cond_ = cond;
    alive_ = real;
    for (auto& [s, c] : pending_) fold(std::move(s), c);
    pending_.clear();
  }
  void add(State s, const Condition& cond) {
    if (!acc_) {
      pending_.emplace_back(std::move(s), cond);
      return;
    }
    fold(std::move(s), cond);
  }
  // Nothing runs after the `case` when no path through it is alive.
  State finish() {
    State out = std::move(*acc_);
    if (!alive_) out.dead = true;
    return out;
  }

 private:
  void fold(State s, const Condition& cond) {
    if (s.dead) return;
    alive_ = true;
    acc_ = merge_states(std::move(*acc_), std::move(s), acc_cond_, cond, true, merges_ > 0);
    ++merges_;
  }

  std::optional<State> acc_;
  Condition acc_cond_;
  std::vector<std::pair<State, Condition>> pending_;
  int merges_ = 0;
  bool alive_ = false;
};

}  // namespace sbr::bash
