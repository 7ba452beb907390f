# The pipeline's layers as CMake libraries (docs/architecture.md, "Layers"). Each layer sees only
# its own headers and those of the layers it names: its sources are compiled against a staged
# include root that holds nothing but those folders, so an include against the direction fails
# to compile ("No such file") instead of quietly growing a cycle.
#
#   sbr_layer(NAME DIRS <folders> DEPS <lower layers> [LIBS <external targets>] [EXTRA <sources>])
#
# DEPS are linked PRIVATE: a layer gets a lower layer's headers only by naming it, never through
# a layer in between.

set(SBR_LAYER_ROOT "${CMAKE_BINARY_DIR}/layers")
option(SBR_UNITY_BUILD "compile each layer's sources in unity batches" ON)
set(SBR_UNITY_BATCH_SIZE 12 CACHE STRING "sources per unity batch")

function(sbr_layer name)
  cmake_parse_arguments(L "" "" "DIRS;DEPS;LIBS;EXTRA" ${ARGN})
  set(stage "${SBR_LAYER_ROOT}/${name}")
  set(sources)
  foreach(dir IN LISTS L_DIRS)
    get_filename_component(parent "${stage}/${dir}" DIRECTORY)
    file(MAKE_DIRECTORY "${parent}")
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${dir}" "${stage}/${dir}" SYMBOLIC)
    file(GLOB_RECURSE found CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${dir}/*.cpp")
    list(APPEND sources ${found})
  endforeach()
  list(FILTER sources EXCLUDE REGEX ".*/analyzer/cli/[a-z_]*main\\.cpp$")
  add_library(sbr_${name} STATIC ${sources} ${L_EXTRA})
  # Unity (jumbo) builds: a layer's sources compiled a batch per translation unit, so the
  # heavy headers every file includes (fmt, yaml-cpp, the model) are parsed once per batch
  # rather than once per file (docs/architecture.md, "Build and test times").
  set_target_properties(sbr_${name} PROPERTIES UNITY_BUILD ${SBR_UNITY_BUILD}
                                               UNITY_BUILD_BATCH_SIZE ${SBR_UNITY_BATCH_SIZE})
  target_include_directories(sbr_${name} PUBLIC "${stage}")
  target_compile_options(sbr_${name} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  target_compile_definitions(sbr_${name} PUBLIC SBR_VERSION="${PROJECT_VERSION}")
  set(deps)
  foreach(d IN LISTS L_DEPS)
    list(APPEND deps sbr_${d})
  endforeach()
  target_link_libraries(sbr_${name} PRIVATE ${deps} PUBLIC ${L_LIBS})
  set_property(GLOBAL PROPERTY SBR_LAYER_DEPS_${name} "${deps}")
  set_property(GLOBAL APPEND PROPERTY SBR_LAYERS sbr_${name})
endfunction()

# A translation unit compiled exactly as layer `layer`'s own sources are, holding one include.
# Not part of `all`: the layering tests build it and expect success (allowed) or "No such file"
# (forbidden). Probes share one lock, since they run the build tool in the same tree.
function(sbr_layer_probe layer header expect)
  string(MAKE_C_IDENTIFIER "${layer}_${header}" id)
  set(src "${CMAKE_BINARY_DIR}/layer_probes/${id}.cpp")
  file(WRITE "${src}.tmp" "// Generated layering probe.\n#include \"${header}\"\n")
  file(COPY_FILE "${src}.tmp" "${src}" ONLY_IF_DIFFERENT)
  add_library(probe_${id} OBJECT EXCLUDE_FROM_ALL "${src}")
  get_property(deps GLOBAL PROPERTY SBR_LAYER_DEPS_${layer})
  target_include_directories(probe_${id} PRIVATE "${SBR_LAYER_ROOT}/${layer}")
  target_link_libraries(probe_${id} PRIVATE ${deps})
  add_test(NAME "layering: ${layer} ${expect} ${header}"
           COMMAND ${CMAKE_COMMAND} --build "${CMAKE_BINARY_DIR}" --target probe_${id})
  set_tests_properties("layering: ${layer} ${expect} ${header}" PROPERTIES RESOURCE_LOCK build_tree)
  if(expect STREQUAL "cannot-include")
    # gcc says "x.h: No such file", clang "'x.h' file not found" (the sanitizer builds).
    set_tests_properties("layering: ${layer} ${expect} ${header}" PROPERTIES
                         PASS_REGULAR_EXPRESSION "${header}: No such file;'${header}' file not found")
  endif()
endfunction()
