# Installing ppl like a Debian tool (docs/install.md): `cmake --install build` (prefix from
# CMAKE_INSTALL_PREFIX, or --prefix) puts
#   bin/ppl
#   share/man/man1/ppl.1.gz                       ppl's manual page (`ppl man`)
#   share/bash-completion/completions/ppl         its completion (`ppl completion bash`)
#   share/ppl/examples/                           the bundled models and their data
#   share/doc/ppl/                                the README and docs/
# and `cpack -G DEB` (in the build directory) makes ppl_VERSION_ARCH.deb of the same files
# under /usr, whose dependencies dpkg-shlibdeps (Debian's dpkg-dev) reads off the program.
include(GNUInstallDirs)

install(TARGETS ppl RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The manual page and the completion are written by the program that is installed, from
# the definitions its --help prints (cli/manual.cpp), when it is installed: whatever was
# built, they cannot disagree with it.
install(CODE "
  execute_process(COMMAND \"$<TARGET_FILE:ppl>\" man OUTPUT_FILE \"${CMAKE_BINARY_DIR}/ppl.1\" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR \"ppl man failed (\${status})\")
  endif()
  execute_process(COMMAND gzip -9nf \"${CMAKE_BINARY_DIR}/ppl.1\" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR \"gzip of ppl.1 failed (\${status})\")
  endif()
  execute_process(COMMAND \"$<TARGET_FILE:ppl>\" completion bash OUTPUT_FILE \"${CMAKE_BINARY_DIR}/ppl.bash-completion\"
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR \"ppl completion bash failed (\${status})\")
  endif()
")
install(FILES ${CMAKE_BINARY_DIR}/ppl.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_BINARY_DIR}/ppl.bash-completion DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME ppl)

install(DIRECTORY ${CMAKE_SOURCE_DIR}/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ppl/examples
        PATTERN "*.py" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ppl)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ppl developers <ppl@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "probabilistic programming language: models, data, posterior draws")
set(CPACK_PACKAGE_DESCRIPTION "ppl reads generative models in its own language or in BUGS (JAGS, OpenBUGS),
chooses a sampler for every unknown by the model's structure (conjugate and
collapsed Gibbs, enumeration, NUTS, slice, Metropolis-Hastings), runs parallel
chains and reports the posterior with convergence diagnostics.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, r-cran-rstan, r-cran-coda")
set(CPACK_STRIP_FILES ON)
include(CPack)
