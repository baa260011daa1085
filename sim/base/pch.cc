// The translation unit that builds the product libraries' precompiled header (DRAINSIM_PCH in
// the top-level CMakeLists.txt). It has no code: CMake compiles the header for it.
