# Two wrappers around Qt's code generators, for build speed (Linux hosts; elsewhere, and with
# -DGATEHOUSE_QT_TOOL_WRAPPERS=OFF, the tools run as Qt's CMake code calls them).
#
# moc (every AUTOMOC target): AUTOMOC hands moc every include directory of a target, the
# compiler's implicit ones too (/usr/include, libstdc++'s). moc then preprocesses the whole C++
# standard library behind every #include <QtTest> or <memory>: 7.3 s for one test source against
# 0.28 s without them. The wrapper drops exactly those directories. Its output is byte-identical
# (checked for all 194 files moc generates here, metatype JSON included): moc skips an #include
# it cannot find, and what it generates depends on Qt's headers and ours, not the standard
# library's. All moc runs of the sanitizer build: 76 s -> 20 s.
#
# qmlcachegen (the console's QML module): Qt 6.4's qmlcachegen declares the registers of each
# compiled function in the order of a QHash, which differs from run to run, so its C++ differed
# every time and the compiler cache never hit for the 67 compiled QML files (the heaviest units
# of the console, compiled again in every build). The wrapper sorts each run of register
# declarations; declarations without initialisers can come in any order, so the program is the
# same and the text is stable.
include(${CMAKE_CURRENT_LIST_DIR}/AllTargets.cmake)

if(CMAKE_HOST_SYSTEM_NAME STREQUAL "Linux")
  set(gatehouse_tool_wrappers_default ON)
else()
  set(gatehouse_tool_wrappers_default OFF)
endif()
option(GATEHOUSE_QT_TOOL_WRAPPERS
       "Run moc without the compiler's include directories and sort qmlcachegen's output (Linux)"
       ${gatehouse_tool_wrappers_default})

function(gatehouse_configure_tool_wrapper template output)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/${template}" "${output}" @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                 WORLD_READ WORLD_EXECUTE)
endfunction()

# At the end of the top-level CMakeLists.txt, once every target exists.
function(gatehouse_moc_wrapper)
  if(NOT GATEHOUSE_QT_TOOL_WRAPPERS OR NOT TARGET Qt6::moc)
    return()
  endif()
  get_target_property(GATEHOUSE_MOC Qt6::moc LOCATION)
  set(patterns "")
  foreach(d IN LISTS CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES)
    list(APPEND patterns "\"-I${d}\"")
  endforeach()
  if(NOT patterns OR NOT GATEHOUSE_MOC)
    return()
  endif()
  list(JOIN patterns "|" GATEHOUSE_MOC_DROP)
  set(wrapper "${CMAKE_BINARY_DIR}/qt-tools/moc")
  gatehouse_configure_tool_wrapper(moc-wrapper.sh.in "${wrapper}")
  gatehouse_all_targets(targets "${PROJECT_SOURCE_DIR}")
  foreach(t IN LISTS targets)
    get_target_property(automoc ${t} AUTOMOC)
    if(automoc)
      set_property(TARGET ${t} PROPERTY AUTOMOC_EXECUTABLE "${wrapper}")
    endif()
  endforeach()
endfunction()

# Before qt_add_qml_module(target ...).
function(gatehouse_qmlcachegen_wrapper target)
  if(NOT GATEHOUSE_QT_TOOL_WRAPPERS OR NOT TARGET Qt6::qmlcachegen)
    return()
  endif()
  get_target_property(GATEHOUSE_QMLCACHEGEN Qt6::qmlcachegen LOCATION)
  set(wrapper "${CMAKE_BINARY_DIR}/qt-tools/qmlcachegen")
  gatehouse_configure_tool_wrapper(qmlcachegen-wrapper.sh.in "${wrapper}")
  set_property(TARGET ${target} PROPERTY QT_QMLCACHEGEN_EXECUTABLE "${wrapper}")
endfunction()
