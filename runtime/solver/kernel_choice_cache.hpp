#pragma once
/// \file kernel_choice_cache.hpp
/// The small text file in which `fvbench --kernels auto`, fvrun ([scheme] assembly = auto) and
/// fvbench's timed choice among all its variants (bench::choose_any_assembly()) remember the
/// fastest residual-assembly variant per (mesh UUID, device name). One line per entry,
/// tab-separated:
///   <mesh uuid> <TAB> <device name> <TAB> <variant> <TAB> <stage ms> <TAB> <UTC date>
/// Later lines win. Default path: $FV_KERNEL_CACHE, else $XDG_CACHE_HOME/fvkit/kernel-choice.tsv,
/// else $HOME/.cache/fvkit/kernel-choice.tsv.
#include <optional>
#include <string>

namespace fv {

std::string default_kernel_cache_path();

/// The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" (the cache's date column, benchmark reports).
std::string utc_timestamp();

/// The cached variant name for (uuid, device), if any. A missing or unreadable file is no entry.
std::optional<std::string> lookup_kernel_choice(const std::string& path, const std::string& uuid,
                                                const std::string& device);

/// Appends an entry (creating the file and its directory). Throws fv::Error naming the file
/// when it cannot be written.
void store_kernel_choice(const std::string& path, const std::string& uuid,
                         const std::string& device, const std::string& variant, double ms,
                         const std::string& date);

} // namespace fv
