#pragma once
/// \file fake_transport.hpp
/// An in-process fake of backend::Communicator for tests: N "ranks" are threads of one process
/// that share a FakeHub. Collectives meet at a barrier; the messages of a MessageSet go through
/// per-(set, sender, receiver) mailboxes in host memory (CPU backend only). It exercises the
/// halo exchanges and the solver against the transport interface alone, without MPI.
#include "runtime/backend/communicator.hpp"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace fv::testing {

/// What the threads of one fake run share. Not copyable.
class FakeHub {
 public:
  explicit FakeHub(int size) : size_(size), slots_(static_cast<std::size_t>(size)) {}
  int size() const { return size_; }

  /// Every rank deposits `mine`; after the barrier, f(all deposits) runs on each rank.
  template <class F>
  void meet(int rank, std::vector<char> mine, F&& f) {
    {
      std::lock_guard<std::mutex> g(m_);
      slots_[static_cast<std::size_t>(rank)] = std::move(mine);
    }
    barrier();
    f(slots_);
    barrier(); // nobody overwrites a slot before everyone has read them
  }

  /// Mailbox of messages of set `set` from `from` to `to` (FIFO).
  void post(int set, int from, int to, std::vector<real_t> msg) {
    std::lock_guard<std::mutex> g(m_);
    box_[{set, from, to}].push_back(std::move(msg));
    cv_.notify_all();
  }
  std::vector<real_t> take(int set, int from, int to) {
    std::unique_lock<std::mutex> g(m_);
    auto& q = box_[{set, from, to}];
    cv_.wait(g, [&] { return !q.empty(); });
    std::vector<real_t> msg = std::move(q.front());
    q.pop_front();
    return msg;
  }

 private:
  void barrier() {
    std::unique_lock<std::mutex> g(m_);
    const long gen = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(g, [&] { return generation_ != gen; });
    }
  }
  int size_;
  std::mutex m_;
  std::condition_variable cv_;
  int arrived_ = 0;
  long generation_ = 0;
  std::vector<std::vector<char>> slots_;
  std::map<std::tuple<int, int, int>, std::deque<std::vector<real_t>>> box_;
};

/// Rank `rank` of a FakeHub (see file comment).
class FakeCommunicator final : public backend::Communicator {
 public:
  FakeCommunicator(FakeHub& hub, int rank) : hub_(hub), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return hub_.size(); }
  std::string name() const override { return "in-process fake"; }

  void allreduce(double* v, int n, backend::ReduceOp op) override { reduce(v, n, op); }
  void allreduce(std::int64_t* v, int n, backend::ReduceOp op) override { reduce(v, n, op); }
  void broadcast(void* data, std::size_t bytes, int root) override {
    std::vector<char> mine(bytes);
    std::memcpy(mine.data(), data, bytes);
    hub_.meet(rank_, std::move(mine), [&](const std::vector<std::vector<char>>& all) {
      std::memcpy(data, all[static_cast<std::size_t>(root)].data(), bytes);
    });
  }
  void alltoall(const int* send, int* recv) override {
    const auto n = static_cast<std::size_t>(size());
    std::vector<char> mine(n * sizeof(int));
    std::memcpy(mine.data(), send, mine.size());
    hub_.meet(rank_, std::move(mine), [&](const std::vector<std::vector<char>>& all) {
      for (std::size_t q = 0; q < n; ++q)
        std::memcpy(recv + q, all[q].data() + static_cast<std::size_t>(rank_) * sizeof(int),
                    sizeof(int));
    });
  }

  std::unique_ptr<backend::MessageSet> messages(const backend::MessageLayout& l) override {
    return std::make_unique<Messages>(hub_, sets_++, rank_, l);
  }

 private:
  /// start() posts copies of the send slices; finish() takes the peers' and copies them in.
  class Messages final : public backend::MessageSet {
   public:
    Messages(FakeHub& hub, int set, int rank, const backend::MessageLayout& l)
        : hub_(hub), set_(set), rank_(rank), l_(l) {}
    void start(int K) override {
      K_ = K;
      for (std::size_t k = 0; k < l_.peers.size(); ++k) {
        const real_t* b = l_.sendBuffer + static_cast<std::size_t>(l_.sendOffsets[k]) * K;
        const real_t* e = l_.sendBuffer + static_cast<std::size_t>(l_.sendOffsets[k + 1]) * K;
        hub_.post(set_, rank_, l_.peers[k], std::vector<real_t>(b, e));
      }
    }
    void progress() override {}
    void finish() override {
      for (std::size_t k = 0; k < l_.peers.size(); ++k) {
        const std::vector<real_t> msg = hub_.take(set_, l_.peers[k], rank_);
        const std::size_t n =
            static_cast<std::size_t>(l_.recvOffsets[k + 1] - l_.recvOffsets[k]) * K_;
        if (msg.size() != n) throw std::runtime_error("fake transport: message size mismatch");
        std::copy(msg.begin(), msg.end(),
                  l_.recvBuffer + static_cast<std::size_t>(l_.recvOffsets[k]) * K_);
      }
    }
    void abandon() noexcept override {}

   private:
    FakeHub& hub_;
    int set_, rank_;
    backend::MessageLayout l_;
    int K_ = 1;
  };

  template <class T>
  void reduce(T* v, int n, backend::ReduceOp op) {
    std::vector<char> mine(static_cast<std::size_t>(n) * sizeof(T));
    std::memcpy(mine.data(), v, mine.size());
    hub_.meet(rank_, std::move(mine), [&](const std::vector<std::vector<char>>& all) {
      for (int i = 0; i < n; ++i) {
        T acc{};
        for (std::size_t q = 0; q < all.size(); ++q) { // rank order: the same sum everywhere
          T x;
          std::memcpy(&x, all[q].data() + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
          if (q == 0)
            acc = x;
          else if (op == backend::ReduceOp::Sum)
            acc += x;
          else if (op == backend::ReduceOp::Max)
            acc = std::max(acc, x);
          else
            acc = std::min(acc, x);
        }
        v[i] = acc;
      }
    });
  }

  FakeHub& hub_;
  int rank_;
  int sets_ = 0;
};

} // namespace fv::testing
