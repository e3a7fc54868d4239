#include "tribo/parallel/communicator.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <stdexcept>
#include <string>

#ifdef TRIBO_HAVE_MPI
#include <mpi.h>
#endif

namespace tribo::parallel {

namespace {
// The first of the launchers' variables that is set and a positive number.
int first_positive(std::initializer_list<const char*> names, int otherwise) {
  for (const char* name : names) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (*end == '\0' && n >= 0 && n < 1 << 30) return static_cast<int>(n);
  }
  return otherwise;
}

// A one-process exchange: the only peer is this process itself, and what it sends is what it
// receives (the build without MPI, and a run under MPI on one process).
std::vector<std::vector<std::byte>> exchange_with_self(std::span<const int> peers,
                                                       const std::vector<std::vector<std::byte>>& send) {
  if (peers.size() != send.size()) throw std::invalid_argument("exchange: one buffer per peer");
  for (int p : peers)
    if (p != 0) throw std::invalid_argument("exchange: a one-process run has no peer but itself");
  return send;
}
}  // namespace

// OpenMPI's mpirun sets OMPI_COMM_WORLD_*, MPICH's hydra and Slurm's srun set PMI_* (PMIx: PMIX_RANK).
int launched_processes() { return std::max(1, first_positive({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}, 1)); }
int launched_rank() { return first_positive({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}, 0); }

#ifdef TRIBO_HAVE_MPI

namespace {

bool mpi_running() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + what);
}

// Gathers `count` values of every rank on every rank (rank-major) and folds them in rank order.
template <class T, class Fold>
void gather_fold(std::span<T> values, MPI_Datatype type, int size, Fold fold) {
  std::vector<T> all(values.size() * static_cast<std::size_t>(size));
  check(MPI_Allgather(values.data(), static_cast<int>(values.size()), type, all.data(),
                      static_cast<int>(values.size()), type, MPI_COMM_WORLD),
        "MPI_Allgather");
  for (std::size_t i = 0; i < values.size(); ++i) {
    T acc = all[i];
    for (int r = 1; r < size; ++r) acc = fold(acc, all[static_cast<std::size_t>(r) * values.size() + i]);
    values[i] = acc;
  }
}

}  // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
  if (mpi_running()) return;
  int provided = 0;
  check(MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  owns_ = true;
}

MpiSession::~MpiSession() {
  if (owns_ && mpi_running()) MPI_Finalize();
}

bool built_with_mpi() { return true; }

Communicator Communicator::world() {
  Communicator c;
  if (!mpi_running()) return c;
  MPI_Comm_rank(MPI_COMM_WORLD, &c.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &c.size_);
  c.uses_mpi_ = c.size_ > 1;
  return c;
}

double Communicator::sum(double value) const {
  sum_in_place(std::span<double>(&value, 1));
  return value;
}
long long Communicator::sum(long long value) const {
  sum_in_place(std::span<long long>(&value, 1));
  return value;
}
double Communicator::min(double value) const {
  min_in_place(std::span<double>(&value, 1));
  return value;
}
double Communicator::max(double value) const {
  max_in_place(std::span<double>(&value, 1));
  return value;
}

void Communicator::sum_in_place(std::span<double> values) const {
  if (uses_mpi_) gather_fold(values, MPI_DOUBLE, size_, [](double a, double b) { return a + b; });
}
void Communicator::sum_in_place(std::span<long long> values) const {
  if (uses_mpi_) gather_fold(values, MPI_LONG_LONG, size_, [](long long a, long long b) { return a + b; });
}
void Communicator::min_in_place(std::span<double> values) const {
  if (uses_mpi_) gather_fold(values, MPI_DOUBLE, size_, [](double a, double b) { return b < a ? b : a; });
}
void Communicator::max_in_place(std::span<double> values) const {
  if (uses_mpi_) gather_fold(values, MPI_DOUBLE, size_, [](double a, double b) { return b > a ? b : a; });
}

std::vector<std::vector<std::byte>> Communicator::all_to_all(std::vector<std::vector<std::byte>> send) const {
  if (static_cast<int>(send.size()) != size_) throw std::invalid_argument("all_to_all: one buffer per rank");
  if (!uses_mpi_) return send;
  // Sizes first (one 64-bit count per pair), then the bytes, in one MPI_Alltoallv.
  std::vector<std::int64_t> send_count(size_), receive_count(size_);
  for (int r = 0; r < size_; ++r) send_count[r] = static_cast<std::int64_t>(send[r].size());
  check(MPI_Alltoall(send_count.data(), 1, MPI_INT64_T, receive_count.data(), 1, MPI_INT64_T, MPI_COMM_WORLD),
        "MPI_Alltoall");
  std::vector<int> sdispl(size_), rdispl(size_), scount(size_), rcount(size_);
  std::vector<std::byte> sbuf, rbuf;
  std::int64_t stotal = 0, rtotal = 0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) continue;  // the local part stays local
    sdispl[r] = static_cast<int>(stotal);
    scount[r] = static_cast<int>(send_count[r]);
    stotal += send_count[r];
    rdispl[r] = static_cast<int>(rtotal);
    rcount[r] = static_cast<int>(receive_count[r]);
    rtotal += receive_count[r];
  }
  if (stotal > INT32_MAX || rtotal > INT32_MAX) throw std::runtime_error("all_to_all: more than 2 GiB in one exchange");
  sbuf.resize(static_cast<std::size_t>(stotal));
  for (int r = 0; r < size_; ++r)
    if (r != rank_ && !send[r].empty()) std::copy(send[r].begin(), send[r].end(), sbuf.begin() + sdispl[r]);
  rbuf.resize(static_cast<std::size_t>(rtotal));
  check(MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), MPI_BYTE, rbuf.data(), rcount.data(),
                      rdispl.data(), MPI_BYTE, MPI_COMM_WORLD),
        "MPI_Alltoallv");
  std::vector<std::vector<std::byte>> received(size_);
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) {
      received[r] = std::move(send[r]);
    } else {
      received[r].assign(rbuf.begin() + rdispl[r], rbuf.begin() + rdispl[r] + rcount[r]);
    }
  }
  return received;
}

std::vector<std::vector<std::byte>> Communicator::exchange(std::span<const int> peers,
                                                           const std::vector<std::vector<std::byte>>& send) const {
  if (!uses_mpi_) return exchange_with_self(peers, send);
  if (peers.size() != send.size()) throw std::invalid_argument("exchange: one buffer per peer");
  std::vector<std::vector<std::byte>> received(peers.size());
  // Sizes, then payloads; tag 1 for sizes, 2 for bytes. Non-blocking both ways so the order of
  // the peers cannot deadlock.
  const std::size_t n = peers.size();
  std::vector<std::int64_t> out_size(n), in_size(n);
  std::vector<MPI_Request> requests;
  requests.reserve(2 * n);
  for (std::size_t k = 0; k < n; ++k) {
    out_size[k] = static_cast<std::int64_t>(send[k].size());
    requests.emplace_back();
    MPI_Irecv(&in_size[k], 1, MPI_INT64_T, peers[k], 1, MPI_COMM_WORLD, &requests.back());
    requests.emplace_back();
    MPI_Isend(&out_size[k], 1, MPI_INT64_T, peers[k], 1, MPI_COMM_WORLD, &requests.back());
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  requests.clear();
  for (std::size_t k = 0; k < n; ++k) {
    if (in_size[k] > INT32_MAX || out_size[k] > INT32_MAX) throw std::runtime_error("exchange: over 2 GiB to one peer");
    received[k].resize(static_cast<std::size_t>(in_size[k]));
    requests.emplace_back();
    MPI_Irecv(received[k].data(), static_cast<int>(in_size[k]), MPI_BYTE, peers[k], 2, MPI_COMM_WORLD, &requests.back());
    requests.emplace_back();
    MPI_Isend(send[k].data(), static_cast<int>(out_size[k]), MPI_BYTE, peers[k], 2, MPI_COMM_WORLD, &requests.back());
  }
  check(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return received;
}

void Communicator::barrier() const {
  if (uses_mpi_) MPI_Barrier(MPI_COMM_WORLD);
}

#else  // built without MPI: one process, every operation the identity

MpiSession::MpiSession(int*, char***) {}
MpiSession::~MpiSession() = default;
bool built_with_mpi() { return false; }
Communicator Communicator::world() { return Communicator{}; }
double Communicator::sum(double value) const { return value; }
long long Communicator::sum(long long value) const { return value; }
double Communicator::min(double value) const { return value; }
double Communicator::max(double value) const { return value; }
void Communicator::sum_in_place(std::span<double>) const {}
void Communicator::sum_in_place(std::span<long long>) const {}
void Communicator::min_in_place(std::span<double>) const {}
void Communicator::max_in_place(std::span<double>) const {}
std::vector<std::vector<std::byte>> Communicator::all_to_all(std::vector<std::vector<std::byte>> send) const {
  if (send.size() != 1) throw std::invalid_argument("all_to_all: one buffer per rank");
  return send;
}
std::vector<std::vector<std::byte>> Communicator::exchange(std::span<const int> peers,
                                                           const std::vector<std::vector<std::byte>>& send) const {
  return exchange_with_self(peers, send);
}
void Communicator::barrier() const {}

#endif

}  // namespace tribo::parallel
