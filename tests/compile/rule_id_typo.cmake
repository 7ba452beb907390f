# CTest `rule_id_typo_does_not_compile`: a misspelt rule constant, and a rule id made from a
# literal, fail to compile; the same file with the right constant compiles (so the failures are
# the names, not the setup). Run with -DCXX=... -DSRC=... -DINCLUDES=<list>.
set(flags -std=c++20 -fsyntax-only)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()

function(compile expect_ok regex)
  execute_process(COMMAND "${CXX}" ${flags} ${ARGN} "${SRC}" RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect_ok AND NOT rc EQUAL 0)
    message(FATAL_ERROR "expected to compile (${ARGN}):\n${out}")
  elseif(NOT expect_ok AND rc EQUAL 0)
    message(FATAL_ERROR "expected a compile error (${ARGN}), it compiled")
  elseif(NOT expect_ok AND NOT out MATCHES "${regex}")
    message(FATAL_ERROR "expected an error matching `${regex}` (${ARGN}):\n${out}")
  endif()
endfunction()

compile(TRUE "" -DSBR_RULE=privileged_container)
compile(FALSE "privileged_containr" -DSBR_RULE=privileged_containr)
compile(FALSE "private" -DSBR_RULE=privileged_container -DSBR_FROM_TEXT)
message(STATUS "rule ids: a typo and a literal do not compile")
