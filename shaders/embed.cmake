# Turns each shader file in IN (a list) into a raw string constant in the header OUT:
# shaders/map.vert -> constexpr const char* kShader_map_vert.
set(text "// Generated from shaders/ by shaders/embed.cmake. Do not edit.\n#pragma once\n\nnamespace pl::app::shaders {\n")
foreach(file ${IN})
  get_filename_component(name ${file} NAME)
  string(MAKE_C_IDENTIFIER ${name} id)
  file(READ ${file} body)
  string(APPEND text "inline constexpr const char* k_${id} = R\"pathlab_glsl(${body})pathlab_glsl\";\n")
endforeach()
string(APPEND text "}  // namespace pl::app::shaders\n")
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
