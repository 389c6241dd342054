# gatehouse_add_test(NAME name SOURCES ... LIBS ... LABELS ... [ARGS ...])
# One Qt Test executable, registered with CTest under the given labels (run with ARGS).
function(gatehouse_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test ${T_LIBS})
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR}/backend ${PROJECT_SOURCE_DIR}/tests)
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${T_ARGS})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                       ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_LOGGING_RULES=gatehouse.*.debug=false")
endfunction()

# gatehouse_full_malloc_stacks(TEST...): these tests' processes record each allocation with
# the slow unwinder. The test command runs ASan with its fast (frame-pointer) unwinder, which
# costs a quarter of the suite's CPU less; but Debian's Qt and OpenSSL have no frame pointers,
# so an allocation made inside them gets a stack that stops there. Tests whose known reports
# are suppressed by a frame deep inside Qt or OpenSSL (tests/sanitizers/lsan.supp) need the
# full stack for the suppression to match. Appended to ASAN_OPTIONS (a later flag wins).
function(gatehouse_full_malloc_stacks)
  set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT_MODIFICATION
               "ASAN_OPTIONS=string_append::fast_unwind_on_malloc=0:malloc_context_size=10")
endfunction()
