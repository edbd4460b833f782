# SPDX-License-Identifier: MIT
# segcConfig.cmake - the segc package for CMake's find_package(segc).
#
# `make install` puts this file in <prefix>/lib/cmake/segc/ and segc in
# <prefix>/bin/; with the prefix in CMAKE_PREFIX_PATH (or a standard one):
#
#   cmake_minimum_required(VERSION 3.20)
#   find_package(segc 0.1 REQUIRED)
#   add_executable(driver main.c)
#   segc_generate(TARGET driver SPEC board.yaml)
#
# Provides:
#   segc::segc              imported executable: the segc installed with
#                           this file (never another one from PATH)
#   SEGC_EXECUTABLE         its path
#   segc_generate(...)      runs `segc build` at build time, see below
#
# segc_generate(TARGET <target> SPEC <spec.yaml>
#               NAME <board> [OUTPUT_DIR <dir>] [OPTIONS <arg>...]
#               [OUTPUTS_VAR <variable>])
#
#   Adds a build step that runs `segc build <spec> -o <dir> -MD -MF ...` and
#   adds the generated <board>_segments.c to <target>'s sources and <dir> to
#   its include directories, so `#include "<board>_segments.h"` works.
#   The step reruns when the spec, any file of its `extends` chain or a
#   hook file changes: segc writes a depfile naming them, and
#   add_custom_command(DEPFILE) reads it (CMake 3.20 or later, Makefile and
#   Ninja generators).
#
#   SPEC         the spec; a relative path is taken from the current source
#                directory.
#   OUTPUT_DIR   where the files go (default: <binary dir>/segc/<target>);
#                relative paths are taken from the current binary directory.
#   NAME         board.name of the spec, which segc names its files after
#                (required: the outputs must be known at configure time,
#                and reading them from the spec would make every edit of
#                the spec rerun the configure step).
#   OPTIONS      more arguments for `segc build`: -D NAME=EXPR, -I DIR,
#                -W..., --templates DIR, --lookup-budget SIZE, --annotate;
#                relative -I and --templates directories are taken from the
#                current source directory.
#   OUTPUTS_VAR  set this variable to the list of generated files.

if(CMAKE_VERSION VERSION_LESS 3.20)
  set(segc_FOUND FALSE)
  set(segc_NOT_FOUND_MESSAGE "segc_generate needs CMake 3.20 or later (add_custom_command DEPFILE)")
  return()
endif()
cmake_policy(PUSH)
cmake_policy(VERSION 3.20)

# This file is <prefix>/lib/cmake/segc/segcConfig.cmake.
get_filename_component(_segc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET segc::segc)
  find_program(SEGC_EXECUTABLE NAMES segc PATHS "${_segc_prefix}/bin" NO_DEFAULT_PATH)
  if(NOT SEGC_EXECUTABLE)
    set(segc_FOUND FALSE)
    set(segc_NOT_FOUND_MESSAGE "segc is not in ${_segc_prefix}/bin, next to this package's files")
    cmake_policy(POP)
    return()
  endif()
  add_executable(segc::segc IMPORTED)
  set_target_properties(segc::segc PROPERTIES IMPORTED_LOCATION "${SEGC_EXECUTABLE}")
endif()

function(segc_generate)
  cmake_parse_arguments(PARSE_ARGV 0 _sg "" "TARGET;SPEC;OUTPUT_DIR;NAME;OUTPUTS_VAR" "OPTIONS")
  if(_sg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "segc_generate: unknown arguments: ${_sg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _sg_TARGET OR NOT TARGET "${_sg_TARGET}")
    message(FATAL_ERROR "segc_generate: TARGET must name an existing target (got '${_sg_TARGET}')")
  endif()
  if(NOT _sg_SPEC)
    message(FATAL_ERROR "segc_generate: SPEC is required")
  endif()
  get_filename_component(_spec "${_sg_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${_spec}")
    message(FATAL_ERROR "segc_generate: no spec at ${_spec}")
  endif()
  if(NOT _sg_OUTPUT_DIR)
    set(_sg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/segc/${_sg_TARGET}")
  endif()
  get_filename_component(_out "${_sg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  # Directories in OPTIONS (-I, --templates) are taken from the current
  # source directory, like SPEC; segc runs in the binary directory.
  set(_opts)
  set(_path_next FALSE)
  foreach(_o IN LISTS _sg_OPTIONS)
    if(_path_next)
      get_filename_component(_o "${_o}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(_path_next FALSE)
    elseif(_o STREQUAL "-I" OR _o STREQUAL "--templates")
      set(_path_next TRUE)
    elseif(_o MATCHES "^(-I|--templates=)(.+)$")
      set(_flag "${CMAKE_MATCH_1}")
      get_filename_component(_dir "${CMAKE_MATCH_2}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(_o "${_flag}${_dir}")
    endif()
    list(APPEND _opts "${_o}")
  endforeach()

  # The generated files are named after board.name, and a build system
  # must know its outputs before the first build.  Reading the name from
  # the spec at configure time would make every edit of the spec rerun the
  # configure step (to follow a renamed board), so the name is given.
  set(_name "${_sg_NAME}")
  if(NOT _name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "segc_generate: NAME <board.name of ${_sg_SPEC}> is required (the generated files are named after it)")
  endif()

  # segc leaves a file whose bytes did not change untouched.  Ninja
  # restats the outputs and recompiles only what really changed; Makefile
  # generators have no restat and would run segc on every build once an
  # input is newer than the outputs, so there the step touches them.
  # The first output must be the first target segc's depfile names (Ninja
  # checks it): the header, then the source, then segc_dxgk.h.
  set(_outputs "${_out}/${_name}_segments.h" "${_out}/${_name}_segments.c" "${_out}/segc_dxgk.h")
  set(_touch)
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")
    set(_touch COMMAND "${CMAKE_COMMAND}" -E touch ${_outputs})
  endif()
  add_custom_command(
    OUTPUT ${_outputs}
    COMMAND segc::segc build ${_opts} "${_spec}" -o "${_out}" -MD -MF "${_out}/${_name}.d"
    ${_touch}
    MAIN_DEPENDENCY "${_spec}"
    DEPENDS segc::segc
    DEPFILE "${_out}/${_name}.d"
    COMMENT "segc: generating ${_name}_segments.c from ${_sg_SPEC}"
    VERBATIM)
  target_sources("${_sg_TARGET}" PRIVATE ${_outputs})
  target_include_directories("${_sg_TARGET}" PRIVATE "${_out}")
  if(_sg_OUTPUTS_VAR)
    set(${_sg_OUTPUTS_VAR} ${_outputs} PARENT_SCOPE)
  endif()
endfunction()

unset(_segc_prefix)
cmake_policy(POP)
