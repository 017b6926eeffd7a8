#include "common/zone.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace fv {

std::string describe(const Extrusion& e) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "2D mesh extruded by %g along (%g, %g, %g)", e.thickness,
                e.direction[0], e.direction[1], e.direction[2]);
  return buf;
}

void derive_zone_arrays(Zone& z) {
  const auto nf = static_cast<std::size_t>(z.nFaces);
  const idx_t nT = z.nTotalCells();
  FV_VERIFY(z.faceOwner.size() == nf && z.faceNeighbour.size() == nf &&
                z.faceCentroid.size() == 3 * nf &&
                z.cellCentroid.size() == 3 * static_cast<std::size_t>(nT),
            "zone " << z.zoneId << ": cannot derive the face offsets: faces/owner, "
                    << "faces/neighbour, faces/centroid or cells/centroid has the wrong size");
  std::vector<real_t> own(3 * nf), ngb(3 * nf, 0.0);
  const idx_t* owner = z.faceOwner.data();
  const idx_t* neighbour = z.faceNeighbour.data();
  const real_t* fc = z.faceCentroid.data();
  const real_t* cc = z.cellCentroid.data();
  const auto n = static_cast<std::int64_t>(nf);
  std::int64_t bad = -1; // a face naming a cell outside [0, nT) (the last such)
#pragma omp parallel for schedule(static) reduction(max : bad) if (n > 100000)
  for (std::int64_t f = 0; f < n; ++f) {
    const idx_t o = owner[f], nb = neighbour[f];
    if (o < 0 || o >= nT || (nb != kNone && (nb < 0 || nb >= nT))) {
      bad = std::max(bad, f);
      continue;
    }
    for (int d = 0; d < 3; ++d) {
      own[3 * f + d] = fc[3 * f + d] - cc[3 * o + d];
      if (nb != kNone) ngb[3 * f + d] = fc[3 * f + d] - cc[3 * nb + d];
    }
  }
  FV_VERIFY(bad < 0, "zone " << z.zoneId << ": face " << bad << " names a cell outside [0, " << nT
                             << ") (owner " << owner[bad] << ", neighbour " << neighbour[bad]
                             << ")");
  z.faceOwnerDelta = Array<real_t>(std::move(own));
  z.faceNeighbourDelta = Array<real_t>(std::move(ngb));
}

} // namespace fv
