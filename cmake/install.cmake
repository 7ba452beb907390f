# Installation and the Debian package (docs/install.md): `cmake --install build --prefix P`
# puts the binary, the man page, the bash completion and the documentation in the usual places
# below P; `cpack -G DEB` (run in the build directory) packages the same files. The man page
# and the completion are generated at build time from the command's own help, docs/usage.md
# and the embedded catalog, so neither is a second copy that could drift.
include(GNUInstallDirs)
# Installing and packaging take the tree as built and never rebuild it: cpack's implicit
# rebuild re-recorded the commit and relinked sbreview while CTest ran other tests on it.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

add_executable(sbreview_gen_docs analyzer/cli/gen_docs_main.cpp)
target_include_directories(sbreview_gen_docs PRIVATE "${SBR_LAYER_ROOT}/cli")
target_link_libraries(sbreview_gen_docs PRIVATE sbr_cli)

set(SBR_MAN_PAGE "${CMAKE_BINARY_DIR}/man/sbreview.1")
add_custom_command(
  OUTPUT "${SBR_MAN_PAGE}" "${SBR_MAN_PAGE}.gz"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/man"
  COMMAND sbreview_gen_docs man "${CMAKE_SOURCE_DIR}/docs/usage.md"
          "${CMAKE_INSTALL_FULL_DOCDIR}" "${SBR_MAN_PAGE}"
  # Debian installs man pages compressed; -n keeps the archive free of a time stamp.
  COMMAND sh -c "gzip -9n < \"${SBR_MAN_PAGE}\" > \"${SBR_MAN_PAGE}.gz\""
  DEPENDS sbreview_gen_docs "${CMAKE_SOURCE_DIR}/docs/usage.md"
  COMMENT "Generating the man page"
  VERBATIM)
set(SBR_COMPLETION "${CMAKE_BINARY_DIR}/completion/sbreview")
add_custom_command(
  OUTPUT "${SBR_COMPLETION}"
  COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/completion"
  COMMAND sh -c "\"$<TARGET_FILE:sbreview>\" completion bash > \"${SBR_COMPLETION}\""
  DEPENDS sbreview
  COMMENT "Generating the bash completion"
  VERBATIM)
add_custom_target(sbr_generated_docs ALL DEPENDS "${SBR_MAN_PAGE}.gz" "${SBR_COMPLETION}")

install(TARGETS sbreview RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${SBR_MAN_PAGE}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
install(FILES "${SBR_COMPLETION}"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/bash-completion/completions")
install(FILES README.md DESTINATION "${CMAKE_INSTALL_DOCDIR}")
install(FILES LICENSE DESTINATION "${CMAKE_INSTALL_DOCDIR}" RENAME copyright)
install(DIRECTORY docs/ DESTINATION "${CMAKE_INSTALL_DOCDIR}")
# The runtime prover's probe (prover/), when it is built: `sbreview prove` looks for it in
# libexec/sbreview beside bin/.
if(TARGET sbreview_probe)
  install(TARGETS sbreview_probe RUNTIME DESTINATION "${CMAKE_INSTALL_LIBEXECDIR}/sbreview")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sbreview)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "sbreview")
set(CPACK_PACKAGE_CONTACT "sbreview maintainers <sbreview@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "security review of the configuration of sandboxes that run untrusted code")
set(CPACK_PACKAGE_DESCRIPTION
    "sbreview reads Kubernetes manifests, Helm charts, Kustomize overlays, podman/docker\n\
launch scripts, compose files, devcontainers, Dockerfiles, seccomp profiles and egress\n\
gates, builds one model of every workload as it would run, and reports what lets the\n\
code inside escape, exfiltrate, persist or exhaust the machine, as SARIF, JSON or text.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends is computed by dpkg-shlibdeps from the libraries the binary links; the prover needs
# podman (runsc for gVisor), `check` needs neither.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "podman, runc, runsc")
include(CPack)
