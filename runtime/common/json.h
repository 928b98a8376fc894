// A small JSON reader and writer for case.json and manifests (no third-party dependency: this library must also
// build on the NVIDIA machine, which has only a compiler, CMake and CUDA).
//
// Numbers keep their source text as well as a double, so that 64-bit integers (seeds, u64 parameters, bit
// patterns) are read exactly instead of through a double. Objects keep their members in source order, since the
// order of `buffers` decides the default outputs. Every value remembers its line:col for error messages.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace p2g::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool b = false;
  double num = 0;
  std::string str;                                    // String; for Number, the literal as written
  std::vector<Value> arr;                             // Array
  std::vector<std::pair<std::string, Value>> obj;     // Object, source order
  uint32_t line = 0, col = 0;                         // where the value starts (1-based)

  // Declared here, defaulted in json.cpp: with the implicit ones, clang (the sanitizer and libFuzzer builds,
  // tests/sanitize.sh) instantiates std::pair<std::string, Value> while Value is still incomplete and rejects it.
  Value();
  Value(const Value&);
  Value(Value&&) noexcept;
  Value& operator=(const Value&);
  Value& operator=(Value&&) noexcept;
  ~Value();

  bool isNull() const { return kind == Kind::Null; }
  bool isBool() const { return kind == Kind::Bool; }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
  bool isArray() const { return kind == Kind::Array; }
  bool isObject() const { return kind == Kind::Object; }

  // Member lookup; nullptr when absent or when this is not an object.
  const Value* find(const std::string& key) const;
  // "line:col" of this value, for messages.
  std::string where() const;

  // Exact integer readings of a Number. They fail (return false) for a fraction, an exponent that leaves a
  // fraction, or a value out of range, rather than rounding silently.
  bool toU64(uint64_t& out) const;
  bool toI64(int64_t& out) const;
};

// Parses `text`. On error returns false and sets `err` to "line:col: message".
bool parse(const std::string& text, Value& out, std::string& err);

// Writing helpers for hand-built documents (the manifest writer).
std::string quote(const std::string& s);

}  // namespace p2g::json
