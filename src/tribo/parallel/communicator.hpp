#pragma once
// The processes of a run (docs/parallel.md): one communicator over MPI_COMM_WORLD when Tribo is
// built with MPI and started under mpirun, and a one-process communicator otherwise, with the same
// interface, so that solvers call the same reductions and exchanges either way. Only this file's
// source includes <mpi.h>: no other part of Tribo depends on an MPI installation.
#include <cstddef>
#include <span>
#include <vector>

namespace tribo::parallel {

// Starts MPI (thread level FUNNELED: OpenMP threads inside a process, MPI calls from the master
// thread only) for the lifetime of the object when Tribo is built with MPI and MPI is not already
// running; finalizes it at the end. Without MPI it does nothing.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

 private:
  bool owns_ = false;  // this object initialized MPI and so finalizes it
};

// The number of processes an MPI launcher (mpirun/mpiexec of OpenMPI or MPICH, srun) started this
// one among, read from the launcher's environment without starting MPI; 1 when none did. And this
// process's rank among them (0 when none).
int launched_processes();
int launched_rank();

// True when Tribo was built with MPI (the build found it; scripts/install-deps.sh installs it).
bool built_with_mpi();

class Communicator {
 public:
  // MPI_COMM_WORLD when MPI is running; a one-process communicator (rank 0 of 1) otherwise.
  static Communicator world();
  // Always one process, whatever MPI does: for code paths and tests that must stay local.
  static Communicator single() { return Communicator{}; }

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Reductions over every process (each process passes its own value and gets the result).
  // Floating-point sums are gathered and added in rank order on every process, not left to
  // MPI_Allreduce (whose order the standard does not fix): every rank gets the same bits, and a
  // fixed process count gives bitwise repeatable runs. Meant for short arrays (history rows,
  // counts, box bounds); bulk nodal sums go through exchange().
  double sum(double value) const;
  long long sum(long long value) const;
  double min(double value) const;
  double max(double value) const;
  void sum_in_place(std::span<double> values) const;
  void sum_in_place(std::span<long long> values) const;
  void min_in_place(std::span<double> values) const;
  void max_in_place(std::span<double> values) const;

  // Variable-size all-to-all: send[r] goes to rank r (send.size() == size()); returns what each
  // rank sent to this one, indexed by source rank. send[rank()] is returned as it is, uncopied
  // through MPI.
  std::vector<std::vector<std::byte>> all_to_all(std::vector<std::vector<std::byte>> send) const;

  // Point-to-point with a fixed set of peers (halo exchange): sends send[k] to peers[k] and
  // returns what peers[k] sent to this rank. Each peer must list this rank among its own peers.
  std::vector<std::vector<std::byte>> exchange(std::span<const int> peers,
                                               const std::vector<std::vector<std::byte>>& send) const;

  void barrier() const;

 private:
  Communicator() = default;
  int rank_ = 0;
  int size_ = 1;
  bool uses_mpi_ = false;  // false: every operation is the one-process identity
};

}  // namespace tribo::parallel
