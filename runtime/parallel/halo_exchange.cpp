#include "runtime/parallel/halo_exchange.hpp"

#include "common/error.hpp"
#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/parallel/errors.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <sstream>

namespace fv::parallel {

// Kernels live in a named namespace at file scope: nvcc's extended __host__ __device__ lambdas
// must be defined in functions with external linkage that are not private class members.
namespace halo_kernels {

/// Up to kMaxFields strided fields seen as one field of `ktot` components (captured by value).
struct Fields {
  real_t* data[HaloExchange::kMaxFields] = {};
  std::int64_t entityStride[HaloExchange::kMaxFields] = {};
  std::int64_t componentStride[HaloExchange::kMaxFields] = {};
  int first[HaloExchange::kMaxFields + 1] = {}; // first combined component of each field
  int n = 0;
  int ktot = 0;

  FV_HOST_DEVICE real_t& at(idx_t entity, int c) const {
    int f = 0;
    while (c >= first[f + 1])
      ++f;
    return data[f][entity * entityStride[f] + (c - first[f]) * componentStride[f]];
  }
};

/// Algorithm 12: buf[e * ktot + c] = field(idx[e], c) for the n list entries.
void pack(const char* label, idx_t n, const idx_t* idx, real_t* buf, Fields f) {
  forall(label, n * f.ktot, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t e = i / f.ktot;
    buf[i] = f.at(idx[e], static_cast<int>(i - e * f.ktot));
  });
}

/// Algorithm 13 (Copy): field(idx[e], c) = buf[e * ktot + c].
void unpack_copy(const char* label, idx_t n, const idx_t* idx, const real_t* buf, Fields f) {
  forall(label, n * f.ktot, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t e = i / f.ktot;
    f.at(idx[e], static_cast<int>(i - e * f.ktot)) = buf[i];
  });
}

/// Sum: field(idx[e], c) += buf[e * ktot + c]. Called once per neighbour (a node shared with
/// several neighbours appears in several rows; rows run one after the other, so no races).
void unpack_sum(const char* label, idx_t n, const idx_t* idx, const real_t* buf, Fields f) {
  forall(label, n * f.ktot, [=] FV_HOST_DEVICE(idx_t i) {
    const idx_t e = i / f.ktot;
    f.at(idx[e], static_cast<int>(i - e * f.ktot)) += buf[i];
  });
}

} // namespace halo_kernels

struct HaloExchange::Impl {
  HaloMode mode = HaloMode::Copy;
  std::string name, transport, pack_label, unpack_label;
  int max_k = 1;
  std::vector<int> neighbours;
  std::vector<idx_t> send_off, recv_off; // CSR offsets (host)
  DeviceArray<idx_t> send_idx, recv_idx;
  DeviceArray<real_t> send_dev, recv_dev;
  std::unique_ptr<backend::MessageSet> messages; // the transport's
  halo_kernels::Fields fields;
  bool in_flight = false;
  bool timing = true;
  HaloExchange::Timings times;

  idx_t n_send() const { return send_off.empty() ? 0 : send_off.back(); }
  idx_t n_recv() const { return recv_off.empty() ? 0 : recv_off.back(); }
};

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Everything wrong with this rank's lists (empty when fine); the peer-count check is done
/// collectively afterwards.
std::string check_lists(const ExchangeLists& l, idx_t n_entities, int rank, int size, HaloMode mode,
                        const std::string& name) {
  std::ostringstream o;
  o << name << " exchange lists of zone " << rank << ": ";
  const std::size_t nn = l.neighbours.size();
  if (l.send.rows() != static_cast<idx_t>(nn) || l.recv.rows() != static_cast<idx_t>(nn)) {
    o << nn << " neighbours but " << l.send.rows() << " send and " << l.recv.rows()
      << " receive rows";
    return o.str();
  }
  for (std::size_t k = 0; k < nn; ++k) {
    const int q = l.neighbours[k];
    if (q < 0 || q >= size || q == rank || (k > 0 && q <= l.neighbours[k - 1])) {
      o << "neighbour " << k << " is zone " << q << " (neighbours must be other zones of the "
        << size << ", ascending)";
      return o.str();
    }
  }
  std::vector<char> seen(static_cast<std::size_t>(std::max<idx_t>(n_entities, 0)), 0);
  for (int pass = 0; pass < 2; ++pass) {
    const Csr& c = pass == 0 ? l.send : l.recv;
    const char* what = pass == 0 ? "send" : "receive";
    for (idx_t k = 0; k < c.rows(); ++k) {
      for (idx_t j = c.begin(k); j < c.end(k); ++j) {
        const idx_t i = c.indices()[j];
        if (i < 0 || i >= n_entities) {
          o << what << " row for zone " << l.neighbours[k] << ": local id " << i << " outside [0, "
            << n_entities << ")";
          return o.str();
        }
      }
      // No entity twice in one row (Sum mode adds row by row; a duplicate would add twice).
      for (idx_t j = c.begin(k); j < c.end(k); ++j) {
        const idx_t i = c.indices()[j];
        if (seen[i]) {
          o << what << " row for zone " << l.neighbours[k] << ": local id " << i << " twice";
          return o.str();
        }
        seen[i] = 1;
      }
      for (idx_t j = c.begin(k); j < c.end(k); ++j)
        seen[c.indices()[j]] = 0;
    }
  }
  if (mode == HaloMode::Copy) { // each halo entity is received from exactly one neighbour
    for (idx_t k = 0; k < l.recv.rows(); ++k)
      for (idx_t j = l.recv.begin(k); j < l.recv.end(k); ++j) {
        const idx_t i = l.recv.indices()[j];
        if (seen[i]) {
          o << "local id " << i << " is received from more than one neighbour";
          return o.str();
        }
        seen[i] = 1;
      }
  }
  return {};
}

} // namespace

HaloExchange::HaloExchange(backend::Communicator& comm, const ExchangeLists& lists,
                           idx_t n_entities, int max_components, HaloMode mode, const char* name)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.mode = mode;
  m.name = name;
  m.transport = comm.name();
  m.pack_label = m.name + " halo pack";
  m.unpack_label = m.name + " halo unpack";
  m.max_k = max_components;
  const int rank = comm.rank(), size = comm.size();

  std::string err = check_lists(lists, n_entities, rank, size, mode, m.name);
  if (err.empty() && max_components < 1) err = m.name + ": max_components must be >= 1";
  check_all(comm, err.empty(), err);

  // Every pair must agree: what q sends me == what I receive from q (0 when not neighbours).
  std::vector<int> send_count(static_cast<std::size_t>(size), 0), peer_send(send_count.size(), 0);
  for (std::size_t k = 0; k < lists.neighbours.size(); ++k)
    send_count[lists.neighbours[k]] = lists.send.size(static_cast<idx_t>(k));
  comm.alltoall(send_count.data(), peer_send.data());
  std::vector<int> recv_count(send_count.size(), 0);
  for (std::size_t k = 0; k < lists.neighbours.size(); ++k)
    recv_count[lists.neighbours[k]] = lists.recv.size(static_cast<idx_t>(k));
  for (int q = 0; q < size && err.empty(); ++q)
    if (peer_send[q] != recv_count[q])
      err = m.name + " exchange lists disagree: zone " + std::to_string(q) + " sends " +
            std::to_string(peer_send[q]) + " entries to zone " + std::to_string(rank) +
            ", which expects " + std::to_string(recv_count[q]);
  const std::size_t total =
      std::max<std::size_t>(lists.send.indices().size(), lists.recv.indices().size());
  if (err.empty() &&
      total * static_cast<std::size_t>(max_components) > std::numeric_limits<idx_t>::max())
    err = m.name + ": " + std::to_string(total) + " entries x " + std::to_string(max_components) +
          " components exceed one exchange buffer (2^31-1 values)";
  check_all(comm, err.empty(), err);

  m.neighbours.assign(lists.neighbours.begin(), lists.neighbours.end());
  m.send_off = lists.neighbours.empty() ? std::vector<idx_t>{0} : lists.send.offsets().to_vector();
  m.recv_off = lists.neighbours.empty() ? std::vector<idx_t>{0} : lists.recv.offsets().to_vector();
  m.send_idx = DeviceArray<idx_t>(lists.send.indices().data(), static_cast<std::size_t>(m.n_send()),
                                  "halo send list");
  m.recv_idx = DeviceArray<idx_t>(lists.recv.indices().data(), static_cast<std::size_t>(m.n_recv()),
                                  "halo receive list");
  m.send_dev = DeviceArray<real_t>(static_cast<std::size_t>(m.n_send()) * max_components,
                                   "halo send buffer");
  m.recv_dev = DeviceArray<real_t>(static_cast<std::size_t>(m.n_recv()) * max_components,
                                   "halo receive buffer");
  backend::MessageLayout layout;
  layout.peers = m.neighbours;
  layout.sendOffsets = m.send_off;
  layout.recvOffsets = m.recv_off;
  layout.maxComponents = max_components;
  layout.sendBuffer = m.send_dev.data();
  layout.recvBuffer = m.recv_dev.data();
  layout.name = m.name;
  m.messages = comm.messages(layout);
}

HaloExchange::~HaloExchange() {
  if (impl_ && impl_->in_flight) {
    // Abandoned by an exception between begin() and finish(): the peers may never match these
    // messages (they are failing too), so waiting could hang, and the transport may still touch
    // the buffers, so freeing them is unsafe. Release what is pending and leak the buffers: the
    // program is about to end with an error anyway.
    impl_->messages->abandon();
    (void)impl_.release();
  }
}

void HaloExchange::begin(const std::vector<FieldView>& fields) {
  Impl& m = *impl_;
  FV_VERIFY(!m.in_flight, m.name << " halo exchange: begin() called twice without finish()");
  FV_VERIFY(!fields.empty() && fields.size() <= static_cast<std::size_t>(kMaxFields),
            m.name << " halo exchange: " << fields.size() << " fields (1 to " << kMaxFields
                   << " per exchange)");
  halo_kernels::Fields f;
  for (const FieldView& v : fields) {
    FV_VERIFY(v.components >= 1 && (v.data || (m.n_send() == 0 && m.n_recv() == 0)),
              m.name << " halo exchange: field " << f.n << " has no data or no components");
    f.data[f.n] = v.data;
    f.entityStride[f.n] = v.entityStride;
    f.componentStride[f.n] = v.componentStride;
    f.first[f.n + 1] = f.first[f.n] + v.components;
    ++f.n;
  }
  f.ktot = f.first[f.n];
  FV_VERIFY(f.ktot <= m.max_k, m.name << " halo exchange: " << f.ktot << " components exceed the "
                                      << m.max_k << " it was built for");
  m.fields = f;
  if (m.timing) backend::synchronize(); // earlier kernels are compute, not packing
  const double t0 = m.timing ? now_s() : 0.0;
  halo_kernels::pack(m.pack_label.c_str(), m.n_send(), m.send_idx.data(), m.send_dev.data(), f);
  m.messages->start(f.ktot);
  m.in_flight = true;
  if (m.timing) {
    backend::synchronize();
    m.times.pack += now_s() - t0;
  }
}

void HaloExchange::progress() {
  Impl& m = *impl_;
  if (m.in_flight) m.messages->progress();
}

void HaloExchange::finish() {
  Impl& m = *impl_;
  FV_VERIFY(m.in_flight, m.name << " halo exchange: finish() without begin()");
  const halo_kernels::Fields f = m.fields;
  if (m.timing) backend::synchronize(); // interior kernels overlapping the messages
  const double t0 = m.timing ? now_s() : 0.0;
  m.messages->finish();
  if (m.timing) backend::synchronize();
  const double t1 = m.timing ? now_s() : 0.0;
  if (m.mode == HaloMode::Copy) {
    halo_kernels::unpack_copy(m.unpack_label.c_str(), m.n_recv(), m.recv_idx.data(),
                              m.recv_dev.data(), f);
  } else {
    for (std::size_t k = 0; k < m.neighbours.size(); ++k) {
      const idx_t b = m.recv_off[k];
      halo_kernels::unpack_sum(m.unpack_label.c_str(), m.recv_off[k + 1] - b, m.recv_idx.data() + b,
                               m.recv_dev.data() + static_cast<std::size_t>(b) * f.ktot, f);
    }
  }
  m.in_flight = false;
  if (m.timing) {
    backend::synchronize();
    m.times.wait += t1 - t0;
    m.times.unpack += now_s() - t1;
    ++m.times.exchanges;
  }
}

const HaloExchange::Timings& HaloExchange::timings() const {
  return impl_->times;
}
void HaloExchange::reset_timings() {
  impl_->times = Timings{};
}
void HaloExchange::set_timing(bool on) {
  impl_->timing = on;
}

bool HaloExchange::in_flight() const {
  return impl_->in_flight;
}
int HaloExchange::neighbour_count() const {
  return static_cast<int>(impl_->neighbours.size());
}
std::size_t HaloExchange::send_entries() const {
  return static_cast<std::size_t>(impl_->n_send());
}
std::size_t HaloExchange::recv_entries() const {
  return static_cast<std::size_t>(impl_->n_recv());
}
std::string HaloExchange::transport() const {
  return impl_->transport;
}

} // namespace fv::parallel
