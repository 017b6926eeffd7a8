#include "runtime/backend/forall.hpp"
#include "runtime/backend/memory.hpp"
#include "runtime/backend/pinned_buffer.hpp"
#include "runtime/backend/reduce.hpp"
#include "runtime/backend/select.hpp"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include <unistd.h>
#if defined(FV_HAVE_OPENMP)
#include <omp.h>
#endif
#if defined(FV_BACKEND_CUDA)
#include "common/log.hpp"
#include "runtime/backend/cuda_check.hpp"
#endif

namespace fv {
namespace {
Device g_device = Device::Cpu;
std::atomic<std::size_t> g_bytes{0}; // several solvers may run on threads of one process
std::atomic<std::size_t> g_peak{0};  // the most of g_bytes so far

void count_allocation(std::size_t bytes) {
  const std::size_t now = g_bytes += bytes;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}
} // namespace

Device active_device() {
  return g_device;
}

void set_active_device(Device d) {
#if !defined(FV_BACKEND_CUDA)
  FV_VERIFY_USAGE(d == Device::Cpu, "this fvrun was built without CUDA; use --device cpu");
#endif
  g_device = d;
}

const char* backend_name() {
  static std::string name;
  if (g_device == Device::Cuda) return "cuda";
#if defined(FV_HAVE_OPENMP)
  name = "cpu (OpenMP, " + std::to_string(omp_get_max_threads()) + " threads)";
#else
  name = "cpu (serial)";
#endif
  return name.c_str();
}

#if defined(FV_BACKEND_CUDA)
namespace detail {
void check_launch(const char* label) {
  const cudaError_t err = cudaGetLastError();
  FV_VERIFY(err == cudaSuccess,
            "CUDA kernel '" << label << "' failed to launch: " << cudaGetErrorString(err));
}
namespace {
cudaStream_t g_stream = nullptr; // legacy default stream unless a capture redirects it
} // namespace
cudaStream_t current_stream() {
  return g_stream;
}

CooperativeShape cooperative_shape(const void* kernel, int maxBlock, int blocksPerSm) {
  int dev = 0, coop = 0, sms = 0;
  FV_CUDA_CHECK(cudaGetDevice(&dev));
  FV_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  FV_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CooperativeShape s;
  if (!coop || sms <= 0) return s;
  cudaFuncAttributes attr{};
  FV_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
  const int block = (std::min(maxBlock, attr.maxThreadsPerBlock) / 32) * 32;
  if (block <= 0) return s;
  int perSm = 0;
  FV_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, kernel, block, 0));
  perSm = std::min(perSm, blocksPerSm);
  if (perSm <= 0) return s;
  s.block = block;
  s.grid = perSm * sms;
  return s;
}

bool launch_cooperative(const void* kernel, CooperativeShape shape, void** args,
                        const char* label) {
  const cudaError_t err =
      cudaLaunchCooperativeKernel(kernel, dim3(static_cast<unsigned>(shape.grid)),
                                  dim3(static_cast<unsigned>(shape.block)), args, 0, g_stream);
  if (err == cudaErrorCooperativeLaunchTooLarge) {
    (void)cudaGetLastError(); // not sticky: clear it and let the caller launch per group
    static bool warned = false;
    if (!warned)
      FV_LOG_WARN("CUDA kernel '" << label << "': a cooperative grid of " << shape.grid << " x "
                                  << shape.block
                                  << " threads does not fit the device now; falling back to "
                                     "one launch per group");
    warned = true;
    return false;
  }
  FV_VERIFY(err == cudaSuccess, "CUDA kernel '" << label << "' failed to launch cooperatively ("
                                                << shape.grid << " x " << shape.block
                                                << " threads): " << cudaGetErrorString(err));
  check_launch(label);
  return true;
}
void set_current_stream(cudaStream_t s) {
  g_stream = s;
}
} // namespace detail
#endif

// ---------------------------------------------------------------------------------- memory
namespace backend {

void* allocate(Device d, std::size_t bytes, const char* what) {
  void* p = nullptr;
  if (bytes == 0) return nullptr;
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    const cudaError_t err = cudaMalloc(&p, bytes);
    FV_VERIFY(err == cudaSuccess, "CUDA call cudaMalloc failed for '"
                                      << what << "' (" << bytes << " bytes, " << g_bytes.load()
                                      << " already allocated): " << cudaGetErrorString(err));
    FV_CUDA_CHECK(cudaMemset(p, 0, bytes));
    count_allocation(bytes);
    return p;
  }
#endif
  (void)d;
  p = std::calloc(bytes, 1);
  FV_VERIFY(p, "out of memory allocating '" << what << "' (" << bytes << " bytes)");
  count_allocation(bytes);
  return p;
}

void release(Device d, void* p, std::size_t bytes) noexcept {
  if (!p) return;
  g_bytes -= bytes;
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    (void)cudaFree(p); // errors at shutdown (context already gone) are ignored
    return;
  }
#endif
  (void)d;
  std::free(p);
}

void copy_to_device(Device d, void* dst, const void* src, std::size_t bytes) {
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    FV_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    return;
  }
#endif
  (void)d;
  std::memcpy(dst, src, bytes);
}

void copy_to_host(Device d, void* dst, const void* src, std::size_t bytes) {
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    FV_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    return;
  }
#endif
  (void)d;
  std::memcpy(dst, src, bytes);
}

void copy_on_device(Device d, void* dst, const void* src, std::size_t bytes) {
#if defined(FV_BACKEND_CUDA)
  if (d == Device::Cuda) {
    FV_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    return;
  }
#endif
  (void)d;
  std::memcpy(dst, src, bytes);
}

void synchronize() {
#if defined(FV_BACKEND_CUDA)
  if (g_device == Device::Cuda) FV_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

std::size_t bytes_allocated() {
  return g_bytes.load();
}

std::size_t bytes_peak() {
  return g_peak.load();
}

std::size_t device_memory_total() {
#if defined(FV_BACKEND_CUDA)
  if (g_device == Device::Cuda) {
    std::size_t free = 0, total = 0;
    FV_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return total;
  }
#endif
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)
                               : 0;
}

struct ReduceSlot::Buffers {
  DeviceArray<real_t> buf;
  Device dev = Device::Cpu;
  PinnedBuffer<real_t> host; ///< the partials read back (page-locked for the CUDA device)
};

ReduceSlot::ReduceSlot() : b_(new Buffers) {}
ReduceSlot::~ReduceSlot() {
  delete b_;
}
ReduceSlot::ReduceSlot(ReduceSlot&& o) noexcept : b_(o.b_) {
  o.b_ = nullptr;
}
ReduceSlot& ReduceSlot::operator=(ReduceSlot&& o) noexcept {
  std::swap(b_, o.b_);
  return *this;
}

real_t* ReduceSlot::device(std::size_t n) {
  Buffers& s = *b_;
  if (s.buf.size() < n || s.dev != active_device()) {
    s.buf = DeviceArray<real_t>();
    s.buf = DeviceArray<real_t>(n < 4096 ? 4096 : 2 * n, "reduction scratch");
    s.dev = active_device();
  }
  return s.buf.data();
}

const real_t* ReduceSlot::read_back(std::size_t n, std::size_t offset) {
  Buffers& s = *b_;
  FV_VERIFY(offset + n <= s.buf.size(), "reduction scratch overflow");
  if (s.dev == Device::Cpu) return s.buf.data() + offset; // host memory already
  if (s.host.size() < n) { // sized to what is read back (pinning is slow)
    s.host = PinnedBuffer<real_t>();
    s.host = PinnedBuffer<real_t>(std::max<std::size_t>(2 * n, 4096), s.dev, "reduction read-back");
  }
#if defined(FV_BACKEND_CUDA)
  if (n)
    FV_CUDA_CHECK(cudaMemcpyAsync(s.host.data(), s.buf.data() + offset, n * sizeof(real_t),
                                  cudaMemcpyDeviceToHost, detail::current_stream()));
#endif
  return s.host.data();
}

ReduceSlot& default_reduce_slot() {
  // one per thread (several solvers may run on threads of one process, as in
  // tests/parallel/test_fake_transport), grown on demand, released at thread exit
  thread_local ReduceSlot s;
  return s;
}

real_t* reduce_scratch(std::size_t n) {
  return default_reduce_slot().device(n);
}

const real_t* reduce_scratch_to_host(std::size_t n, std::size_t offset) {
  const real_t* h = default_reduce_slot().read_back(n, offset);
  synchronize();
  return h;
}

} // namespace backend

void PendingReduce::get(real_t* out) const {
  const real_t init = op == ReduceOp::Sum ? 0.0 : (op == ReduceOp::Min ? 1e300 : -1e300);
  for (int k = 0; k < nComponents; ++k)
    out[k] = init;
  if (m == 0) return;
  backend::synchronize(); // the partials' copy is queued behind the reduction's kernels
  for (int k = 0; k < nComponents; ++k)
    for (idx_t c = 0; c < m; ++c) { // chunk order: the documented summation order
      const real_t v = host[static_cast<std::size_t>(k) * m + c];
      if (op == ReduceOp::Sum)
        out[k] += v;
      else if (op == ReduceOp::Min)
        out[k] = v < out[k] ? v : out[k];
      else
        out[k] = v > out[k] ? v : out[k];
    }
}

// ------------------------------------------------------------------------ device selection
DeviceRequest parse_device_request(const std::string& s) {
  DeviceRequest r = DeviceRequest::Auto;
  if (s == "gpu") return DeviceRequest::Cuda; // fvbench's alias
  FV_VERIFY_USAGE(parse_enum(kDeviceRequestNames, s, r),
                  "unknown device '" << s << "' (valid: " << join_enum_names(kDeviceRequestNames)
                                     << ")");
  return r;
}

int cuda_device_count() {
#if defined(FV_BACKEND_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError(); // no driver / no device: clear the sticky error, report none
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

int local_rank() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (initialised && !finalised) {
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    int r = 0;
    MPI_Comm_rank(local, &r);
    MPI_Comm_free(&local);
    return r;
  }
  for (const char* var : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
                          "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* v = std::getenv(var)) return std::atoi(v);
  }
  return 0;
}

std::string select_device(DeviceRequest request) {
  const int count = cuda_device_count();
  if (request == DeviceRequest::Cpu || (request == DeviceRequest::Auto && count == 0)) {
    set_active_device(Device::Cpu);
    return backend_name();
  }
#if defined(FV_BACKEND_CUDA)
  FV_VERIFY_USAGE(count > 0, "--device cuda: no CUDA device is visible to this process "
                             "(check CUDA_VISIBLE_DEVICES and the driver; --device cpu runs "
                             "on the CPU)");
  const int rank = local_rank();
  const int dev = rank % count;
  FV_CUDA_CHECK(cudaSetDevice(dev));
  cudaDeviceProp prop{};
  FV_CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
  set_active_device(Device::Cuda);
  return "cuda device " + std::to_string(dev) + " of " + std::to_string(count) + " (" + prop.name +
         ", local rank " + std::to_string(rank) + ")";
#else
  FV_VERIFY_USAGE(false, "this fvrun was built without CUDA; use --device cpu");
  return {};
#endif
}

} // namespace fv
