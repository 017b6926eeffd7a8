#pragma once
/// \file enum_names.hpp
/// The names of an enumeration, written once next to it as a table of {value, "name"} pairs:
///
///   inline constexpr EnumName<Flux> kFluxNames[] = {{Flux::Roe, "roe"},
///                                                   {Flux::Rusanov, "rusanov"}};
///
/// Everyone who parses, prints or lists the names (case files, command lines, messages,
/// documentation) goes through the table with the functions below, so that a new value gets
/// its name in one place and every list shows it. The table's order is the order of the lists.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fv {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

/// The name of v in `table` ("?" when the table has none).
template <class E, std::size_t N>
const char* enum_name(const EnumName<E> (&table)[N], E v) {
  for (const EnumName<E>& e : table)
    if (e.value == v) return e.name;
  return "?";
}

/// The value named s: true and `out` set when the table has the name, else false.
template <class E, std::size_t N>
bool parse_enum(const EnumName<E> (&table)[N], std::string_view s, E& out) {
  for (const EnumName<E>& e : table)
    if (s == e.name) {
      out = e.value;
      return true;
    }
  return false;
}

/// The names in table order.
template <class E, std::size_t N>
std::vector<std::string> enum_names(const EnumName<E> (&table)[N]) {
  std::vector<std::string> out;
  for (const EnumName<E>& e : table)
    out.emplace_back(e.name);
  return out;
}

/// The names in table order joined by `sep` ("roe, rusanov").
template <class E, std::size_t N>
std::string join_enum_names(const EnumName<E> (&table)[N], const char* sep = ", ") {
  std::string out;
  for (const EnumName<E>& e : table)
    out += (out.empty() ? "" : sep) + std::string(e.name);
  return out;
}

} // namespace fv
