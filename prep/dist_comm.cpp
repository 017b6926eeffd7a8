#include "prep/dist_comm.hpp"

#include <algorithm>
#include <exception>

namespace fv::dist {

Comm::Comm(MPI_Comm c) : comm_(c) {
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
}

void Comm::barrier() const {
  MPI_Barrier(comm_);
}

namespace {
template <class T>
T reduce_one(MPI_Comm c, T v, MPI_Datatype t, MPI_Op op) {
  T out{};
  MPI_Allreduce(&v, &out, 1, t, op, c);
  return out;
}

int checked_count(std::int64_t n) {
  FV_VERIFY(n >= 0 && n <= std::numeric_limits<int>::max(),
            "MPI message of " << n << " elements exceeds 2^31-1");
  return static_cast<int>(n);
}
} // namespace

std::int64_t Comm::sum(std::int64_t v) const {
  return reduce_one(comm_, v, MPI_INT64_T, MPI_SUM);
}
std::int64_t Comm::min(std::int64_t v) const {
  return reduce_one(comm_, v, MPI_INT64_T, MPI_MIN);
}
std::int64_t Comm::max(std::int64_t v) const {
  return reduce_one(comm_, v, MPI_INT64_T, MPI_MAX);
}
double Comm::min(double v) const {
  return reduce_one(comm_, v, MPI_DOUBLE, MPI_MIN);
}
double Comm::max(double v) const {
  return reduce_one(comm_, v, MPI_DOUBLE, MPI_MAX);
}

std::int64_t Comm::exscan(std::int64_t v) const {
  std::int64_t out = 0;
  MPI_Exscan(&v, &out, 1, MPI_INT64_T, MPI_SUM, comm_);
  return rank_ == 0 ? 0 : out;
}

std::vector<std::int64_t> Comm::exscan(const std::vector<std::int64_t>& v) const {
  std::vector<std::int64_t> out(v.size(), 0);
  MPI_Exscan(v.data(), out.data(), checked_count(static_cast<std::int64_t>(v.size())), MPI_INT64_T,
             MPI_SUM, comm_);
  if (rank_ == 0) std::fill(out.begin(), out.end(), 0);
  return out;
}

void Comm::min_in_place(std::vector<std::int32_t>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(static_cast<std::int64_t>(v.size())),
                MPI_INT32_T, MPI_MIN, comm_);
}
void Comm::max_in_place(std::vector<std::int32_t>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(static_cast<std::int64_t>(v.size())),
                MPI_INT32_T, MPI_MAX, comm_);
}

void Comm::sum_in_place(std::vector<std::int64_t>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(static_cast<std::int64_t>(v.size())),
                MPI_INT64_T, MPI_SUM, comm_);
}
void Comm::min_in_place(std::vector<double>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(static_cast<std::int64_t>(v.size())),
                MPI_DOUBLE, MPI_MIN, comm_);
}
void Comm::max_in_place(std::vector<double>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), checked_count(static_cast<std::int64_t>(v.size())),
                MPI_DOUBLE, MPI_MAX, comm_);
}

std::vector<std::int64_t> Comm::all_gather(std::int64_t v) const {
  std::vector<std::int64_t> out(static_cast<std::size_t>(size_));
  MPI_Allgather(&v, 1, MPI_INT64_T, out.data(), 1, MPI_INT64_T, comm_);
  return out;
}

std::string Comm::broadcast(const std::string& s, int root) const {
  std::int64_t len = rank_ == root ? static_cast<std::int64_t>(s.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT64_T, root, comm_);
  std::string out = rank_ == root ? s : std::string(static_cast<std::size_t>(len), '\0');
  MPI_Bcast(out.data(), checked_count(len), MPI_CHAR, root, comm_);
  return out;
}

namespace detail {

MPI_Datatype bytes_type(std::size_t bytes) {
  MPI_Datatype t;
  MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &t);
  MPI_Type_commit(&t);
  return t;
}

void alltoallv(const Comm& comm, const void* send, const std::vector<std::int64_t>& sendCounts,
               void* recv, const std::vector<std::int64_t>& recvCounts, std::size_t bytes) {
  const int p = comm.size();
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  std::int64_t so = 0, ro = 0;
  for (int r = 0; r < p; ++r) {
    sc[r] = checked_count(sendCounts[r]);
    rc[r] = checked_count(recvCounts[r]);
    sd[r] = checked_count(so);
    rd[r] = checked_count(ro);
    so += sendCounts[r];
    ro += recvCounts[r];
  }
  MPI_Datatype t = bytes_type(bytes);
  MPI_Alltoallv(send, sc.data(), sd.data(), t, recv, rc.data(), rd.data(), t, comm.get());
  MPI_Type_free(&t);
}

void allgatherv(const Comm& comm, const void* send, std::int64_t n, void* recv,
                const std::vector<std::int64_t>& counts, std::size_t bytes) {
  const int p = comm.size();
  std::vector<int> rc(p), rd(p);
  std::int64_t o = 0;
  for (int r = 0; r < p; ++r) {
    rc[r] = checked_count(counts[r]);
    rd[r] = checked_count(o);
    o += counts[r];
  }
  MPI_Datatype t = bytes_type(bytes);
  MPI_Allgatherv(send, checked_count(n), t, recv, rc.data(), rd.data(), t, comm.get());
  MPI_Type_free(&t);
}

} // namespace detail

Ranges ranges_from_histogram(const Comm& comm, std::int64_t n, std::int64_t width,
                             std::vector<std::int64_t> hist) {
  comm.sum_in_place(hist);
  std::int64_t total = 0;
  for (const std::int64_t h : hist)
    total += h;
  const int p = comm.size();
  Ranges out;
  out.first.assign(static_cast<std::size_t>(p) + 1, n);
  out.first[0] = 0;
  std::int64_t below = 0; // items in bins [0, b)
  int r = 1;
  for (std::size_t b = 0; b < hist.size() && r < p; ++b) {
    while (r < p && below >= total * r / p)
      out.first[static_cast<std::size_t>(r++)] =
          std::min<std::int64_t>(n, static_cast<std::int64_t>(b) * width);
    below += hist[b];
  }
  return out;
}

void stream_to_root(const Comm& comm, const unsigned char* bytes, std::size_t nBytes,
                    const std::function<void(const unsigned char*, std::size_t)>& consume,
                    std::size_t chunkBytes) {
  FV_VERIFY(chunkBytes > 0 && chunkBytes < (std::size_t(1) << 31),
            "stream_to_root: chunk of " << chunkBytes << " bytes");
  const std::size_t kChunk = chunkBytes;
  constexpr int kTag = 7301;
  if (comm.rank() == 0) {
    for (std::size_t at = 0; at < nBytes; at += kChunk)
      consume(bytes + at, std::min(kChunk, nBytes - at));
    std::vector<unsigned char> buf;
    for (int r = 1; r < comm.size(); ++r) {
      std::int64_t n = 0;
      MPI_Recv(&n, 1, MPI_INT64_T, r, kTag, comm.get(), MPI_STATUS_IGNORE);
      for (std::int64_t at = 0; at < n; at += static_cast<std::int64_t>(kChunk)) {
        const auto k = static_cast<int>(std::min<std::int64_t>(kChunk, n - at));
        buf.resize(static_cast<std::size_t>(k));
        MPI_Recv(buf.data(), k, MPI_BYTE, r, kTag, comm.get(), MPI_STATUS_IGNORE);
        consume(buf.data(), buf.size());
      }
    }
  } else {
    const auto n = static_cast<std::int64_t>(nBytes);
    MPI_Send(&n, 1, MPI_INT64_T, 0, kTag, comm.get());
    for (std::size_t at = 0; at < nBytes; at += kChunk)
      MPI_Send(bytes + at, static_cast<int>(std::min(kChunk, nBytes - at)), MPI_BYTE, 0, kTag,
               comm.get());
  }
}

void run_collectively(const Comm& comm, const std::function<void()>& body) {
  std::string msg;
  int kind = 0; // 0: fine, else the ErrorKind
  try {
    body();
  } catch (const Error& e) {
    msg = e.what();
    kind = e.exit_code();
  } catch (const std::exception& e) {
    msg = e.what();
    kind = static_cast<int>(ErrorKind::Runtime);
  }
  const std::int64_t first = comm.min(kind ? std::int64_t(comm.rank()) : comm.size());
  if (first == comm.size()) return;
  const int root = static_cast<int>(first);
  const std::string text = comm.broadcast(msg, root);
  MPI_Bcast(&kind, 1, MPI_INT, root, comm.get());
  throw Error(text, static_cast<ErrorKind>(kind));
}

} // namespace fv::dist
