#include "prep/dist_source.hpp"

#include "prep/faces.hpp"
#include "prep/mesh_ids.hpp"

#include <cstring>
#include <map>

namespace fv {

namespace {

constexpr char kTokenOpen = '\x1e', kTokenClose = '\x1f';

dist::Ranges ranges_of(const dist::Comm& comm, gidx_t first, gidx_t n) {
  dist::Ranges r;
  const std::vector<std::int64_t> firsts = comm.all_gather(std::int64_t(first));
  r.first.assign(firsts.begin(), firsts.end());
  r.first.push_back(n);
  return r;
}

/// A token of a message: its kind ('c' cell, 'b' boundary face) and id.
struct Token {
  char kind;
  gidx_t id;
};

std::vector<Token> tokens_of(const std::string& msg) {
  std::vector<Token> out;
  for (std::size_t at = msg.find(kTokenOpen); at != std::string::npos;
       at = msg.find(kTokenOpen, at + 1)) {
    const std::size_t end = msg.find(kTokenClose, at);
    if (end == std::string::npos || end < at + 3) break;
    out.push_back({msg[at + 1], std::stoll(msg.substr(at + 2, end - at - 2))});
  }
  return out;
}

/// The message with every token replaced by its holder's label. COLLECTIVE (every process
/// holds the same message).
std::string resolve(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                    const std::string& msg) {
  const std::vector<Token> tokens = tokens_of(msg);
  std::string mine; // "index<close>label<open>" for the tokens this process holds
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    std::string label;
    if (t.kind == 'c' && t.id >= 0 && t.id < s.nCells && layout.cells.owner(t.id) == comm.rank())
      label = cell_label(s.part, static_cast<idx_t>(t.id - s.cellFirst));
    else if (t.kind == 'b' && t.id >= 0 && t.id < s.nBoundaryFaces &&
             layout.bfaces.owner(t.id) == comm.rank())
      label = bface_label(s.part, static_cast<idx_t>(t.id - s.bfaceFirst));
    else
      continue;
    mine += std::to_string(i) + kTokenClose + label + kTokenOpen;
  }
  const std::vector<char> gathered =
      dist::all_gather(comm, std::vector<char>(mine.begin(), mine.end()));
  const std::string all(gathered.begin(), gathered.end());
  std::map<std::size_t, std::string> labels;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t mid = all.find(kTokenClose, at), end = all.find(kTokenOpen, mid);
    labels[std::stoul(all.substr(at, mid - at))] = all.substr(mid + 1, end - mid - 1);
    at = end + 1;
  }
  std::string out;
  std::size_t next = 0, i = 0;
  for (std::size_t at = msg.find(kTokenOpen); at != std::string::npos && i < tokens.size();
       at = msg.find(kTokenOpen, next), ++i) {
    const std::size_t end = msg.find(kTokenClose, at);
    out += msg.substr(next, at - next);
    const auto it = labels.find(i);
    out += it != labels.end() ? it->second
                              : std::string(tokens[i].kind == 'c' ? "cell #" : "boundary face #") +
                                    std::to_string(tokens[i].id + 1);
    next = end + 1;
  }
  return out + msg.substr(std::min(next, msg.size()));
}

} // namespace

SliceLayout::SliceLayout(const dist::Comm& comm, const MeshSlice& s)
    : cells(ranges_of(comm, s.cellFirst, s.nCells)),
      bfaces(ranges_of(comm, s.bfaceFirst, s.nBoundaryFaces)),
      nodes(ranges_of(comm, s.nodeFirst, s.nNodes)) {}

void validate_slices(const dist::Comm& comm, const MeshSlice& s) {
  dist::run_collectively(comm, [&] { validate_cell_arrays(s.part, static_cast<idx_t>(s.nNodes)); });
  dist::run_collectively(comm,
                         [&] { validate_bface_arrays(s.part, static_cast<idx_t>(s.nNodes)); });
}

std::string cell_token(gidx_t c) {
  return kTokenOpen + std::string("c") + std::to_string(c) + kTokenClose;
}
std::string bface_token(gidx_t b) {
  return kTokenOpen + std::string("b") + std::to_string(b) + kTokenClose;
}

void run_labelled(const dist::Comm& comm, const MeshSlice& s, const SliceLayout& layout,
                  const std::function<void()>& body) {
  try {
    dist::run_collectively(comm, body);
  } catch (const Error& e) {
    throw Error(resolve(comm, s, layout, e.what()), e.kind());
  }
}

std::vector<real_t> fetch_source_xyz(const dist::Comm& comm, const MeshSlice& s,
                                     const SliceLayout& layout, const std::vector<idx_t>& ids) {
  const auto n = static_cast<std::int64_t>(ids.size());
  auto dest = [&](std::int64_t i) { return layout.nodes.owner(ids[static_cast<std::size_t>(i)]); };
  auto grouped = dist::group_by_rank<idx_t>(
      comm, n, dest, [&](std::int64_t i, idx_t& v) { v = ids[static_cast<std::size_t>(i)]; });
  const dist::Received<idx_t> asked = dist::exchange(comm, grouped.first, grouped.second);
  grouped = {};
  struct Xyz {
    real_t x[3];
  };
  std::vector<Xyz> ans(asked.data.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < ans.size(); ++i) {
    const auto k = static_cast<std::size_t>(asked.data[i] - s.nodeFirst);
    std::memcpy(ans[i].x, s.xyz.data() + 3 * k, sizeof ans[i].x);
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r)
    counts[static_cast<std::size_t>(r)] = asked.offsets[r + 1] - asked.offsets[r];
  const dist::Received<Xyz> back = dist::exchange(comm, ans, counts);
  std::vector<Xyz>().swap(ans);
  // The answers of rank r are the ids sent to r, in the order of `ids`.
  const std::vector<std::int64_t> pos = dist::answer_positions(comm, n, dest);
  std::vector<real_t> xyz(3 * ids.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    std::memcpy(xyz.data() + 3 * i,
                back.data[static_cast<std::size_t>(pos[static_cast<std::size_t>(i)])].x,
                sizeof(Xyz));
  return xyz;
}

} // namespace fv
