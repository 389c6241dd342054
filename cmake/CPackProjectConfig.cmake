# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE in Packaging.cmake).
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_GATEHOUSE_CONFIGURED_PREFIX STREQUAL "/usr")
  message(FATAL_ERROR
    "The Debian package needs a build configured with -DCMAKE_INSTALL_PREFIX=/usr "
    "(this one has ${CPACK_GATEHOUSE_CONFIGURED_PREFIX}): the systemd unit and "
    "/etc/default/gatehouse would land in the wrong place.")
endif()
