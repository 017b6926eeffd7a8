#pragma once
/// \file cell_faces.hpp
/// Forwarding header: the local faces of the standard cell shapes (LocalFace, cell_face(),
/// cell_face_count(), cell_type_name()) live in the one shape table, common/cell_shapes.hpp.
/// Kept so that existing includes compile; new code includes common/cell_shapes.hpp.
#include "common/cell_shapes.hpp"
