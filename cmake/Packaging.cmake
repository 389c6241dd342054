# Install rules and CPack: a Debian package (tested: tests/package/check.sh), a macOS bundle
# (macdeployqt) and a Windows installer (windeployqt + NSIS); the last two are untested here.
# docs/packaging.md explains each.
#
#   cmake -S . -B build-package -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
#         -DGATEHOUSE_BUILD_TESTS=OFF
#   cmake --build build-package --target gatehouse && cd build-package && cpack -G DEB

set(gatehouse_packaging_dir "${PROJECT_SOURCE_DIR}/packaging")
set(GATEHOUSE_PACKAGE_MAINTAINER "Gatehouse maintainers <maintainers@users.noreply.a-seed-c9562a97.example>"
    CACHE STRING "Maintainer of the packages (Debian: Maintainer)")
set(GATEHOUSE_PACKAGE_HOMEPAGE "https://gatehouse.example.org"
    CACHE STRING "Project home page (Debian: Homepage)")

set(CPACK_PACKAGE_NAME gatehouse)
set(CPACK_PACKAGE_VENDOR "Gatehouse")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${GATEHOUSE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${GATEHOUSE_PACKAGE_HOMEPAGE}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "Gatehouse")
set(CPACK_PACKAGE_EXECUTABLES "gatehouse;Gatehouse")
set(CPACK_STRIP_FILES ON)
set(CPACK_THREADS 0) # compress on every core

if(APPLE)
  # ---- macOS: Gatehouse.app with Qt, its plugins and the QML imports inside (untested) ----
  set(gatehouse_icns "${CMAKE_CURRENT_BINARY_DIR}/gatehouse.icns")
  add_custom_command(OUTPUT "${gatehouse_icns}"
    COMMAND ${CMAKE_COMMAND} -E rm -rf gatehouse.iconset
    COMMAND ${CMAKE_COMMAND} -E make_directory gatehouse.iconset
    COMMAND sips -z 16 16 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_16x16.png
    COMMAND sips -z 32 32 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_16x16@2x.png
    COMMAND sips -z 32 32 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_32x32.png
    COMMAND sips -z 64 64 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_32x32@2x.png
    COMMAND sips -z 128 128 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_128x128.png
    COMMAND sips -z 256 256 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_128x128@2x.png
    COMMAND sips -z 256 256 "${gatehouse_packaging_dir}/icons/gatehouse-256.png" --out gatehouse.iconset/icon_256x256.png
    COMMAND iconutil -c icns gatehouse.iconset -o "${gatehouse_icns}"
    DEPENDS "${gatehouse_packaging_dir}/icons/gatehouse-256.png"
    WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
    COMMENT "Making gatehouse.icns")
  target_sources(gatehouse PRIVATE "${gatehouse_icns}")
  set_source_files_properties("${gatehouse_icns}" PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
  set_target_properties(gatehouse PROPERTIES
    MACOSX_BUNDLE TRUE
    OUTPUT_NAME Gatehouse
    MACOSX_BUNDLE_INFO_PLIST "${gatehouse_packaging_dir}/macos/Info.plist.in"
    MACOSX_BUNDLE_BUNDLE_NAME Gatehouse
    MACOSX_BUNDLE_EXECUTABLE_NAME Gatehouse
    MACOSX_BUNDLE_GUI_IDENTIFIER org.example.gatehouse
    MACOSX_BUNDLE_ICON_FILE gatehouse.icns
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_COPYRIGHT "Gatehouse maintainers")
  install(TARGETS gatehouse BUNDLE DESTINATION . RUNTIME DESTINATION bin)

  # macdeployqt copies Qt's frameworks, plugins (platform, TLS, sqldrivers) and the QML
  # imports that qml/ uses into the installed bundle.
  find_program(GATEHOUSE_MACDEPLOYQT macdeployqt HINTS "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}")
  if(GATEHOUSE_MACDEPLOYQT)
    install(CODE "
      execute_process(COMMAND \"${GATEHOUSE_MACDEPLOYQT}\" \"\${CMAKE_INSTALL_PREFIX}/Gatehouse.app\"
                              \"-qmldir=${PROJECT_SOURCE_DIR}/qml\" -always-overwrite -verbose=1
                      RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR \"macdeployqt failed (\${rc})\")
      endif()")
    # A disk image straight from the build tree: cmake --build build --target gatehouse_dmg
    add_custom_target(gatehouse_dmg
      COMMAND "${GATEHOUSE_MACDEPLOYQT}" "$<TARGET_BUNDLE_DIR:gatehouse>"
              "-qmldir=${PROJECT_SOURCE_DIR}/qml" -always-overwrite -dmg
      DEPENDS gatehouse
      COMMENT "macdeployqt: Gatehouse.app and Gatehouse.dmg")
  else()
    message(WARNING "macdeployqt not found: the installed bundle will not contain Qt")
  endif()
  set(CPACK_GENERATOR DragNDrop)
  set(CPACK_DMG_VOLUME_NAME Gatehouse)

elseif(WIN32)
  # ---- Windows: gatehouse.exe with Qt next to it, an NSIS installer (untested) ----
  # A console-subsystem program on purpose: the same executable is the headless server and
  # the admin command line. The Start menu entry runs it without arguments (the console).
  install(TARGETS gatehouse RUNTIME DESTINATION bin)
  # The other DLLs (OpenSSL, cjose, jansson, argon2, c-ares, yaml-cpp, protobuf) come from vcpkg's toolchain
  # when configured with -DX_VCPKG_APPLOCAL_DEPS_INSTALL=ON (docs/packaging.md).
  find_program(GATEHOUSE_WINDEPLOYQT windeployqt HINTS "${QT6_INSTALL_PREFIX}/${QT6_INSTALL_BINS}")
  if(GATEHOUSE_WINDEPLOYQT)
    install(CODE "
      execute_process(COMMAND \"${GATEHOUSE_WINDEPLOYQT}\" --release --no-compiler-runtime
                              --qmldir \"${PROJECT_SOURCE_DIR}/qml\"
                              \"\${CMAKE_INSTALL_PREFIX}/bin/gatehouse.exe\"
                      RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR \"windeployqt failed (\${rc})\")
      endif()")
  else()
    message(WARNING "windeployqt not found: the installed program will not contain Qt")
  endif()
  # The MSVC runtime, installed by the installer rather than assumed present.
  set(CMAKE_INSTALL_SYSTEM_RUNTIME_DESTINATION bin)
  include(InstallRequiredSystemLibraries)
  set(CPACK_GENERATOR NSIS)
  set(CPACK_NSIS_PACKAGE_NAME Gatehouse)
  set(CPACK_NSIS_DISPLAY_NAME Gatehouse)
  set(CPACK_NSIS_URL_INFO_ABOUT "${GATEHOUSE_PACKAGE_HOMEPAGE}")
  set(CPACK_NSIS_CONTACT "${GATEHOUSE_PACKAGE_MAINTAINER}")
  set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\\\gatehouse.exe")
  set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
  set(CPACK_NSIS_MODIFY_PATH ON) # offers to put bin\ on PATH for `gatehouse admin ...`
  set(CPACK_NSIS_MUI_FINISHPAGE_RUN gatehouse.exe)
  # The Start menu shortcut comes from CPACK_PACKAGE_EXECUTABLES.

else()
  # ---- Linux: the FHS layout, and the Debian package ----
  include(GNUInstallDirs)
  install(TARGETS gatehouse RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  if(GATEHOUSE_BUILD_CONSOLE)
    # The menu entry and its icon: the SVG source as the scalable icon, PNGs for the rest.
    install(FILES "${gatehouse_packaging_dir}/gatehouse.desktop"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/src/gatehouse.svg"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
    install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/gatehouse.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/128x128/apps")
    install(FILES "${gatehouse_packaging_dir}/icons/gatehouse-256.png" RENAME gatehouse.png
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/256x256/apps")
  endif()
  install(FILES "${PROJECT_SOURCE_DIR}/README.md" "${PROJECT_SOURCE_DIR}/docs/packaging.md"
          DESTINATION "${CMAKE_INSTALL_DATADIR}/doc/gatehouse")

  # The headless service: where systemd looks for package units (/lib/systemd/system on
  # Debian 12) when installing into /usr, else below the prefix so that a user's
  # `cmake --install --prefix ~/.local` writes nothing outside it.
  option(GATEHOUSE_INSTALL_SERVICE "Install the systemd unit and /etc/default/gatehouse" ON)
  set(GATEHOUSE_SYSTEMD_UNIT_DIR "" CACHE STRING
      "Where gatehouse.service is installed (empty: systemd's unit dir for the /usr prefix)")
  if(GATEHOUSE_INSTALL_SERVICE)
    set(gatehouse_unit_dir "${GATEHOUSE_SYSTEMD_UNIT_DIR}")
    if(NOT gatehouse_unit_dir AND CMAKE_INSTALL_PREFIX STREQUAL "/usr")
      pkg_get_variable(gatehouse_unit_dir systemd systemdsystemunitdir)
      if(NOT gatehouse_unit_dir)
        set(gatehouse_unit_dir /lib/systemd/system)
      endif()
    elseif(NOT gatehouse_unit_dir)
      set(gatehouse_unit_dir lib/systemd/system)
    endif()
    install(FILES "${gatehouse_packaging_dir}/gatehouse.service" DESTINATION "${gatehouse_unit_dir}")
    # GNUInstallDirs: /etc for the /usr prefix, <prefix>/etc otherwise.
    # Root's only (systemd reads EnvironmentFile= as root): it may hold GATEHOUSE_DATABASE or
    # PGPASSWORD, which every local user could read at CMake's default 0644.
    install(FILES "${gatehouse_packaging_dir}/gatehouse.default" RENAME gatehouse
            DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/default"
            PERMISSIONS OWNER_READ OWNER_WRITE)
  endif()

  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  # The unit and /etc/default paths are decided at configure time: cpack -G DEB refuses a
  # build configured for another prefix (CPackProjectConfig.cmake).
  set(CPACK_GATEHOUSE_CONFIGURED_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/CPackProjectConfig.cmake")
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # gatehouse_<version>-1_<arch>.deb
  set(CPACK_DEBIAN_PACKAGE_NAME gatehouse)
  set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
  set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GATEHOUSE_PACKAGE_MAINTAINER}")
  set(CPACK_DEBIAN_PACKAGE_SECTION net)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${GATEHOUSE_PACKAGE_HOMEPAGE}")
  # The synopsis is CPACK_PACKAGE_DESCRIPTION_SUMMARY; CPack indents these lines itself and
  # writes an empty one as " .".
  set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "One program, three services administered live from a QML console: orders with
signed, retried status webhooks (Standard Webhooks, transactional outbox); an
OAuth 2.0 / OpenID Connect authorization server; and the access layer of a
Kubernetes-compatible API server (x509, service-account and OIDC tokens, RBAC,
admission).

The package installs the desktop console (menu entry and icon) and a systemd
unit, gatehouse.service, that runs the server headless as the system user
gatehouse with its data in /var/lib/gatehouse, listening on loopback only
until configured otherwise in /etc/default/gatehouse.")
  # Libraries from dpkg-shlibdeps; what it cannot see are the plugins and QML modules Qt
  # loads at run time: the SQLite driver (the database, headless too) and the QML imports of
  # qml/ with what they load in turn (BUILD_PACKAGES in scripts/packages.sh lists the same).
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(gatehouse_runtime_depends adduser libqt6sql6-sqlite)
  if(GATEHOUSE_BUILD_CONSOLE)
    list(APPEND gatehouse_runtime_depends
      qml6-module-qtqml
      qml6-module-qtqml-models
      qml6-module-qtqml-workerscript
      qml6-module-qtquick
      qml6-module-qtquick-controls
      qml6-module-qtquick-dialogs
      qml6-module-qtquick-layouts
      qml6-module-qtquick-templates
      qml6-module-qtquick-window
      qml6-module-qt-labs-folderlistmodel)
  endif()
  list(JOIN gatehouse_runtime_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
  # Qt's PostgreSQL driver, for --database postgresql://... (docs/storage.md); SQLite needs none.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libqt6sql6-psql")
  if(GATEHOUSE_BUILD_CONSOLE)
    # native Wayland windows (else XWayland)
    set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${CPACK_DEBIAN_PACKAGE_RECOMMENDS}, qt6-wayland")
  endif()
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "curl")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    "${gatehouse_packaging_dir}/debian/conffiles"
    "${gatehouse_packaging_dir}/debian/postinst"
    "${gatehouse_packaging_dir}/debian/prerm"
    "${gatehouse_packaging_dir}/debian/postrm")
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()

include(CPack)
