#include "formats/mesh.hpp"
