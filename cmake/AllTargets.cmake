# gatehouse_all_targets(VAR DIR): every target defined in DIR and the folders below it (for the
# functions that run once all targets exist: cmake/UnityBatches.cmake, cmake/QtToolWrappers.cmake).
function(gatehouse_all_targets var dir)
  get_property(found DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    gatehouse_all_targets(below "${sub}")
    list(APPEND found ${below})
  endforeach()
  set(${var} ${found} PARENT_SCOPE)
endfunction()
