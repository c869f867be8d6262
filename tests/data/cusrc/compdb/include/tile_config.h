// tile_config.h: found only through the -I of compile_commands.json.
#pragma once
constexpr int kTile = TILE_FROM_BUILD;
