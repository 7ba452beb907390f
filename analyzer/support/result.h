// A Result<T> shaped like std::expected (not in C++20's library): a value or an error with
// the location that caused it.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace sbr {

struct Error {
  std::string message;  // already formatted "file:line:col: what"
};

template <class T>
class Result {
 public:
  Result(T v) : v_(std::move(v)) {}      // NOLINT(google-explicit-constructor)
  Result(Error e) : v_(std::move(e)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace sbr
