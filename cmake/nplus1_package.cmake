# SPDX-License-Identifier: Apache-2.0
# The Debian packages: `cpack -G DEB` (or plain `cpack`) in the build tree
# writes three packages, split as Debian policy splits a library and its tools
# (one per install component):
#   libnplus1rt0     the runtime, /usr/lib/<triplet>/libnplus1rt.so.0*
#   libnplus1rt-dev  libnplus1rt.so (the link), libnplus1rt.a, nplus1rt.h,
#                    nplus1rt_format.h, nplus1rt.pc
#   nplus1gen        the tool and nplus1gen-validate, their man pages, the
#                    templates and the CMake package (find_package(nplus1gen),
#                    nplus1_generate())
# each <name>_<version>_<arch>.deb, with its copyright (Apache-2.0) and changelog.
# Depends names the Debian packages of the libclang, libpng and OpenCL files
# this build used (dpkg-query -S at configure time). `lintian` finds nothing in
# them (tests/consumer, the deb test). See docs/cmake.md.
include_guard(GLOBAL)

# ${out} = the Debian package that owns FILE (after symlinks when REAL), or "".
function(_nplus1_deb_owner file real out)
  set(owner "")
  if(real)
    get_filename_component(file "${file}" REALPATH)
  endif()
  if(NPLUS1_DPKG_QUERY AND EXISTS "${file}")
    execute_process(COMMAND ${NPLUS1_DPKG_QUERY} -S "${file}" OUTPUT_VARIABLE line
                    ERROR_QUIET RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND line MATCHES "^([a-z0-9.+-]+)(:[a-z0-9]+)?: ")
      set(owner "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${owner}" PARENT_SCOPE)
endfunction()

# The Depends lines: ${rt_out} the runtime's (the OpenCL loader), ${dev_out} the
# development files' (the OpenCL headers and link), ${tool_out} the tool's
# (libclang, libpng), each the packages of the files this build used.
function(_nplus1_deb_depends rt_out dev_out tool_out)
  set(tool libc6)
  if(NPLUS1_BUILD_TOOL AND LIBCLANG_LIBRARY)
    _nplus1_deb_owner("${LIBCLANG_LIBRARY}" TRUE pkg)
    if(NOT pkg AND NPLUS1_LIBCLANG_VERSION MATCHES "^([0-9]+)")
      set(pkg "libclang1-${CMAKE_MATCH_1}")
    endif()
    list(APPEND tool ${pkg})
  endif()
  if(NPLUS1_BUILD_TOOL AND PNG_LIBRARY_RELEASE)
    _nplus1_deb_owner("${PNG_LIBRARY_RELEASE}" TRUE png)
    list(APPEND tool ${png})
  endif()
  # the ICD loader (what the runtime loads), its development link and .pc
  # file (what consumers link with), the headers nplus1rt.h includes
  _nplus1_deb_owner("${OpenCL_LIBRARY}" TRUE loader)
  _nplus1_deb_owner("${OpenCL_LIBRARY}" FALSE dev)
  _nplus1_deb_owner("${OpenCL_INCLUDE_DIR}/CL/cl.h" TRUE headers)
  if(NOT loader)
    set(loader "ocl-icd-libopencl1 | libopencl1")
  endif()
  set(rt libc6 ${loader})
  set(devs ${dev} ${headers})
  foreach(v rt devs tool)
    list(REMOVE_DUPLICATES ${v})
    string(REPLACE ";" ", " ${v} "${${v}}")
  endforeach()
  set(${rt_out} "${rt}" PARENT_SCOPE)
  set(${dev_out} "${devs}" PARENT_SCOPE)
  set(${tool_out} "${tool}" PARENT_SCOPE)
endfunction()

# /usr/share/doc/<package>: copyright (machine-readable) and the Debian
# changelog, changelog.gz (a native package: the version has no Debian
# revision), gzip -9n (no name, no time stamp: the same bytes every build),
# in each package. The changelog's date is the configure time, or
# SOURCE_DATE_EPOCH when set. A plain `cmake --install` puts them in
# share/doc/nplus1gen only (the library packages' copies are EXCLUDE_FROM_ALL).
function(_nplus1_deb_docs)
  set(dir ${PROJECT_BINARY_DIR}/package/doc)
  file(MAKE_DIRECTORY ${dir})
  string(TIMESTAMP NPLUS1_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in ${dir}/changelog @ONLY)
  find_program(NPLUS1_GZIP gzip)
  mark_as_advanced(NPLUS1_GZIP)
  if(NOT NPLUS1_GZIP)
    message(WARNING "gzip not found: the package has no changelog.gz")
    return()
  endif()
  execute_process(COMMAND ${NPLUS1_GZIP} -9n -c ${dir}/changelog
                  OUTPUT_FILE ${dir}/changelog.gz RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9n of ${dir}/changelog failed")
  endif()
  set(files ${PROJECT_SOURCE_DIR}/cmake/debian/copyright ${dir}/changelog.gz)
  install(FILES ${files} DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tool)
  install(FILES ${files} DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/libnplus1rt0
          COMPONENT runtime EXCLUDE_FROM_ALL)
  install(FILES ${files} DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/libnplus1rt-dev
          COMPONENT dev EXCLUDE_FROM_ALL)
endfunction()
_nplus1_deb_docs()

find_program(NPLUS1_DPKG_QUERY dpkg-query)
mark_as_advanced(NPLUS1_DPKG_QUERY)
_nplus1_deb_depends(NPLUS1_DEB_RT_DEPENDS NPLUS1_DEB_DEV_DEPENDS NPLUS1_DEB_TOOL_DEPENDS)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME nplus1gen)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR nplus1gen)
set(CPACK_PACKAGE_CONTACT "nplus1gen developers <nplus1gen@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: CPack would put it before every package's
# description (lintian: description-synopsis-is-duplicated); each package's
# description below starts with its own synopsis.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# install with CMAKE_INSTALL_PREFIX=/usr into a DESTDIR, so nplus1rt.pc says /usr
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

# One package per install component.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev tool)
set(v "${PROJECT_VERSION}")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libnplus1rt0)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "${NPLUS1_DEB_RT_DEPENDS}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "\
runtime of nplus1gen's generated n+1 kernel sets
libnplus1rt runs the sets of kernels nplus1gen generates from a branchy
OpenCL C kernel: it builds them, launches the classifier and the leaf
kernels, and chooses at run time between the split and the original
kernel by timing them. The generated C drivers link with it.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libnplus1rt-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libnplus1rt0 (= ${v}), ${NPLUS1_DEB_DEV_DEPENDS}")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "pkgconf | pkg-config")
set(CPACK_DEBIAN_DEV_DESCRIPTION "\
development files of libnplus1rt, nplus1gen's runtime
The header nplus1rt.h (and nplus1rt_format.h), the link libnplus1rt.so,
the static library libnplus1rt.a and the pkg-config file nplus1rt.pc, for
programs that link the drivers nplus1gen generates.")

set(CPACK_DEBIAN_TOOL_PACKAGE_NAME nplus1gen)
set(CPACK_DEBIAN_TOOL_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS "${NPLUS1_DEB_TOOL_DEPENDS}, libnplus1rt-dev (= ${v})")
set(CPACK_DEBIAN_TOOL_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_TOOL_PACKAGE_SUGGESTS "cmake")
set(CPACK_DEBIAN_TOOL_DESCRIPTION "\
rewrites branchy OpenCL C kernels into the n+1 kernels pattern
nplus1gen rewrites a branchy OpenCL C kernel into a classifier and one
branch-free kernel per leaf of its condition tree, with a generated C host
driver that launches the set like the original kernel. Contains the tool,
nplus1gen-validate, the templates, the man pages and the CMake package
(find_package(nplus1gen), nplus1_generate()).")

# shlibs (for packages built against libnplus1rt.so.0) and the ldconfig
# trigger, as control files of the library's package: CPack's GENERATE_SHLIBS
# would add postinst/postrm scripts calling ldconfig, which Debian replaced by
# the trigger.
set(NPLUS1_DEB_CONTROL ${PROJECT_BINARY_DIR}/package/debian)
file(WRITE ${NPLUS1_DEB_CONTROL}/shlibs
     "libnplus1rt 0 libnplus1rt0 (>= ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})\n")
file(WRITE ${NPLUS1_DEB_CONTROL}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    ${NPLUS1_DEB_CONTROL}/shlibs ${NPLUS1_DEB_CONTROL}/triggers)
include(CPack)
message(STATUS "cpack -G DEB: libnplus1rt0, libnplus1rt-dev, nplus1gen ${CPACK_PACKAGE_VERSION}; "
               "nplus1gen Depends: ${CPACK_DEBIAN_TOOL_PACKAGE_DEPENDS}")
