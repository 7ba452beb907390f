// JSON documents whose large arrays are written one element at a time: the JSON and SARIF
// reports of a 10,000-document stream must not hold every finding as a JSON tree at once
// (docs/robustness.md). The bytes are exactly those of nlohmann's dump(2) of the whole document.
#pragma once

#include <functional>
#include <ostream>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace sbr::report {

using Json = nlohmann::ordered_json;

// What a streamed member's producer calls once per element, in order.
using ElementSink = std::function<void(const Json& element)>;

struct StreamedArray {
  std::string_view key;                             // the member's name in its object
  std::function<void(const ElementSink&)> produce;  // calls the sink for each element
};

// The value to put at each streamed member's place in the document before writing it.
Json stream_placeholder();

// Writes `doc` as doc.dump(2) would (invalid UTF-8 replaced) and a newline, with each member
// holding stream_placeholder() written as the array its StreamedArray produces. The members
// must appear in the document in the order given.
void write_streamed(std::ostream& out, const Json& doc, const std::vector<StreamedArray>& arrays);

}  // namespace sbr::report
