// What the prover reads, parsed without a machine: the probe's kernel files, its report, the
// host's /proc/net/tcp, sizes, the containers.conf it writes and the probe image's archive.
#include <catch2/catch.hpp>

#include "prover/lib/containers_conf.h"
#include "prover/lib/host_net.h"
#include "prover/lib/judge.h"
#include "prover/lib/probe_report.h"
#include "prover/lib/tar.h"
#include "prover/lib/units.h"
#include "prover/probe/probe_parse.h"

// Each test file in its own namespace: the test binary is built in unity batches
// (docs/architecture.md, "Build and test times"), where helpers of the same name would meet.
namespace prover_parse_test {

using namespace sbr;

TEST_CASE("probe: /proc/self/status keeps an absent NoNewPrivs apart from 0", "[prover]") {
  auto s = probe::parse_status(
      "Name:\tprobe\nUid:\t1000\t1000\t1000\t1000\nGid:\t0\t0\t0\t0\nGroups:\t10 20 \n"
      "CapEff:\t0000000000000000\nCapBnd:\t00000000a80425fb\nNoNewPrivs:\t1\nSeccomp:\t2\n");
  CHECK(s.uid == 1000);
  CHECK(s.gid == 0);
  CHECK(s.groups == std::vector<long long>{10, 20});
  CHECK(s.cap_bnd == "00000000a80425fb");
  CHECK(s.no_new_privs == 1);
  CHECK(s.seccomp == 2);
  auto gvisor = probe::parse_status("Uid:\t0\t0\t0\t0\nCapBnd:\t00000000a80405fb\nSeccomp:\t0\n");
  CHECK_FALSE(gvisor.no_new_privs.has_value());
}

TEST_CASE("probe: mountinfo flags, propagation and the mount holding a path", "[prover]") {
  auto m = probe::parse_mountinfo(
      "1 0 0:1 / / ro,relatime - overlay overlay rw\n"
      "2 1 0:2 / /data rw,nosuid shared:7 - ext4 /dev/vda rw\n"
      "3 1 0:2 / /with\\040space ro master:3 - ext4 /dev/vda rw\n");
  REQUIRE(m.size() == 3);
  CHECK(probe::has_option(m[0], "ro"));
  CHECK(probe::propagation_of(m[1]) == "shared");
  CHECK(probe::propagation_of(m[2]) == "slave");
  CHECK(m[2].mount_point == "/with space");
  CHECK(probe::mount_for(m, "/data/x")->mount_point == "/data");
  CHECK(probe::mount_for(m, "/database")->mount_point == "/");
}

TEST_CASE("probe: gVisor by its log or its fixed /proc/version", "[prover]") {
  CHECK(probe::looks_like_gvisor("", "[    0.000000] Starting gVisor...\n"));
  CHECK(probe::looks_like_gvisor("Linux version 4.4.0 #1 SMP Sun Jan 10 15:06:54 PST 2016", ""));
  CHECK_FALSE(probe::looks_like_gvisor("Linux version 6.1.0-13-amd64 (debian-kernel@...)", ""));
}

TEST_CASE("prover: a probe report with an unknown version or no JSON is an error", "[prover]") {
  CHECK_FALSE(prove::parse_probe_report("hello").ok());
  CHECK_FALSE(prove::parse_probe_report("SBREVIEW-PROBE-REPORT {").ok());
  CHECK_FALSE(prove::parse_probe_report("SBREVIEW-PROBE-REPORT {\"probe\": 2}").ok());
  auto r = prove::parse_probe_report(
      "SBREVIEW-PROBE-REPORT {\"probe\":1,\"token\":\"t\",\"cgroup\":{\"version\":2,"
      "\"memory\":\"max\",\"pids\":\"100\",\"cpu\":\"max 100000\"}}");
  REQUIRE(r.ok());
  CHECK_FALSE(prove::cgroup_limit(r->memory).has_value());
  CHECK(prove::cgroup_limit(r->pids) == 100);
  CHECK_FALSE(prove::cgroup_cpus(r->cpu).has_value());
  CHECK(prove::cgroup_cpus("50000 100000") == 0.5);
  CHECK_FALSE(prove::cgroup_limit("9223372036854771712").has_value());  // v1's "no limit"
}

TEST_CASE("prover: capability sets by name", "[prover]") {
  CHECK(prove::capability_names("0000000000000000") == "none");
  CHECK(prove::capability_names("0000000000003000") == "NET_ADMIN, NET_RAW");
  CHECK(prove::capability_bit(Capability::SysAdmin) == 21);
  CHECK(prove::capability_names("000001ffffffffff")
            .rfind("41 capabilities, among them SYS_ADMIN", 0) == 0);
}

TEST_CASE("prover: the host's listening sockets from /proc/net/tcp and tcp6", "[prover]") {
  std::string v4 =
      "  sl  local_address rem_address   st\n"
      "   0: 0100007F:1F90 00000000:0000 0A 0\n"   // 127.0.0.1:8080 LISTEN
      "   1: 00000000:1F90 00000000:0000 0A 0\n"   // 0.0.0.0:8080 LISTEN
      "   2: 0100007F:1F90 0100007F:A000 01 0\n";  // established: not a listener
  CHECK(prove::listening_addresses(v4, false, 8080) ==
        std::vector<std::string>{"127.0.0.1", "0.0.0.0"});
  CHECK(prove::listening_addresses(v4, false, 8081).empty());
  std::string v6 =
      "  sl  local_address                         remote_address st\n"
      "   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A\n"
      "   1: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A\n";
  CHECK(prove::listening_addresses(v6, true, 8080) == std::vector<std::string>{"::"});
  CHECK(prove::listening_addresses(v6, true, 8081) == std::vector<std::string>{"::1"});
}

TEST_CASE("prover: sizes and CPUs in podman's and Kubernetes' units", "[prover]") {
  CHECK(prove::parse_bytes("512m", false) == 536870912);
  CHECK(prove::parse_bytes("1g", false) == 1073741824);
  CHECK(prove::parse_bytes("256Mi", true) == 268435456);
  CHECK(prove::parse_bytes("1G", true) == 1000000000);
  CHECK(prove::parse_bytes("0", false) == 0);
  CHECK_FALSE(prove::parse_bytes("lots", false).has_value());
  CHECK(prove::parse_cpus("500m") == 0.5);
  CHECK(prove::parse_cpus("1.5") == 1.5);
}

TEST_CASE("prover: containers.conf with the gVisor runtime added", "[prover]") {
  std::string base =
      "[containers]\ndefault_ulimits = [\"nofile=1024:1024\"]\n[engine]\nruntime = \"runc\"\n";
  std::string added = prove::conf_with_runsc(base, "/run/x/runsc", false);
  CHECK(added.find("runtime = \"runc\"") != std::string::npos);
  CHECK(added.find("[engine.runtimes]\nsbrp-runsc = [\"/run/x/runsc\"]") != std::string::npos);
  CHECK(added.find("default_ulimits") != std::string::npos);
  std::string def = prove::conf_with_runsc(base, "/run/x/runsc", true);
  CHECK(def.find("runtime = \"runc\"") == std::string::npos);
  CHECK(def.find("[engine]\nruntime = \"sbrp-runsc\"") != std::string::npos);
  std::string empty = prove::conf_with_runsc("", "/w", true);
  CHECK(empty == "[engine]\nruntime = \"sbrp-runsc\"\n[engine.runtimes]\nsbrp-runsc = [\"/w\"]\n");
}

TEST_CASE("prover: the probe image's archive is a valid ustar", "[prover]") {
  std::string t = prove::ustar({{"etc", true, 0755, {}}, {"probe", false, 0755, "abc"}});
  REQUIRE(t.size() == 512 * 5);  // two headers, one data block, two end blocks
  CHECK(t.substr(0, 4) == "etc/");
  CHECK(t.substr(257, 5) == "ustar");
  CHECK(t[156] == '5');
  CHECK(t.substr(512 + 124, 11) == "00000000003");  // size in octal
  CHECK(t.substr(1024, 3) == "abc");
  // The checksum: the header's bytes with the checksum field as spaces.
  std::string h = t.substr(512, 512);
  unsigned stored = std::stoul(h.substr(148, 6), nullptr, 8);
  std::fill(h.begin() + 148, h.begin() + 156, ' ');
  unsigned sum = 0;
  for (char c : h) sum += static_cast<unsigned char>(c);
  CHECK(stored == sum);
}

}  // namespace prover_parse_test
