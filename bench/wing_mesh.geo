// ONERA M6-like wing in a half-sphere far field, tetrahedra (Gmsh >= 4.8, OpenCASCADE kernel).
// Used by bench/wing_mesh.sh, which sets `scale` (all sizes x scale: tets ~ scale^-2.8):
//   gmsh bench/wing_mesh.geo -3 -setnumber scale 1 -format msh41 -bin -o wing.msh
// Planform of the ONERA M6 (root chord 0.8059 m, semi-span 1.1963 m, leading-edge sweep 30 deg,
// taper 0.562, so trailing-edge sweep 15.8 deg); section: NACA 0010 with a closed (sharp)
// trailing edge instead of the ONERA D section. Root on the symmetry plane y = 0, span +y,
// chord +x, lift +z, flat tip cap. Physical groups: wing, farfield, symmetry; volume fluid.
SetFactory("OpenCASCADE");
DefineConstant[ scale = 1,      // multiplies every size below
                hwing = 0.012,  // wing surface size (m; 1.5 % of the root chord)
                hedge = 0.004,  // size on the leading/trailing edges and the tip
                hfar = 1.5,     // far-field size
                growth = 0.1,   // size growth per unit distance from the wing (at scale 1)
                R = 12,         // far-field radius (about 15 root chords)
                algo3d = 1 ];   // 3D algorithm: 1 Delaunay, 10 HXT (parallel)

cr = 0.8059; b = 1.1963; tle = Tan(30*Pi/180); ct = 0.562*cr;
tte = (b*tle + ct - cr)/b;      // trailing-edge sweep tangent (15.8 deg)
n = 80;                         // points per airfoil side (cosine spacing)

// Two sections, ruled between (exact: leading edge and chord are linear in y). The root
// section lies slightly below y = 0 so that the symmetry plane cuts the wing cleanly.
ys[] = {-0.02, b};
For k In {0:1}
  y = ys[k]; xle = y*tle; c = cr + y*(tte - tle);
  ple = newp; Point(ple) = {xle, y, 0};
  pte = newp; Point(pte) = {xle + c, y, 0};
  up[] = {ple}; lo[] = {pte};
  For i In {1:n-1}
    xc = 0.5*(1 - Cos(Pi*i/n));
    zt = 0.5*(0.2969*Sqrt(xc) - 0.1260*xc - 0.3516*xc^2 + 0.2843*xc^3 - 0.1036*xc^4);
    p = newp; Point(p) = {xle + c*xc, y, c*zt}; up[] += p;
    xc = 0.5*(1 - Cos(Pi*(n-i)/n));
    zt = 0.5*(0.2969*Sqrt(xc) - 0.1260*xc - 0.3516*xc^2 + 0.2843*xc^3 - 0.1036*xc^4);
    p = newp; Point(p) = {xle + c*xc, y, -c*zt}; lo[] += p;
  EndFor
  up[] += pte; lo[] += ple;
  cu = newl; Spline(cu) = up[];
  cl = newl; Spline(cl) = lo[];
  w[k] = newll; Wire(w[k]) = {cu, cl};
EndFor
wing = newv; Ruled ThruSections(wing) = {w[0], w[1]};

// Half sphere y >= 0 around the wing, minus the wing.
Sphere(100) = {0.6, 0, 0, R};
Box(101) = {0.6 - R - 1, 0, -R - 1, 2*R + 2, R + 1, 2*R + 2};
half() = BooleanIntersection{ Volume{100}; Delete; }{ Volume{101}; Delete; };
fluid() = BooleanDifference{ Volume{half(0)}; Delete; }{ Volume{wing}; Delete; };

e = 1e-3;
sym() = Surface In BoundingBox{-2*R, -e, -2*R, 2*R, e, 2*R};
wall() = Surface In BoundingBox{-0.1, -0.05, -0.1, 1.3, b + e, 0.1};  // OCC boxes: untrimmed
far() = Abs(Boundary{ Volume{fluid(0)}; });
far() -= sym();
far() -= wall();
Physical Surface("wing", 1) = wall();
Physical Surface("farfield", 2) = far();
Physical Surface("symmetry", 3) = sym();
Physical Volume("fluid", 4) = fluid();

// Sizes: hwing on the wing growing linearly with the distance to hfar; hedge on the edges of
// the wing (leading edge, trailing edge, tip), growing to hwing within 0.05 m.
edges() = Abs(Boundary{ Surface{wall()}; });
edges() -= Abs(Boundary{ Surface{sym()}; });  // not the root, on y = 0
edges() = Unique(edges());
Field[1] = Distance; Field[1].SurfacesList = {wall()}; Field[1].NumPointsPerCurve = 200;
Field[2] = Threshold; Field[2].InField = 1;
Field[2].SizeMin = hwing*scale; Field[2].SizeMax = hfar*scale;
Field[2].DistMin = 0; Field[2].DistMax = (hfar - hwing)/growth;
Field[3] = Distance; Field[3].CurvesList = {edges()}; Field[3].NumPointsPerCurve = 400;
Field[4] = Threshold; Field[4].InField = 3;
Field[4].SizeMin = hedge*scale; Field[4].SizeMax = hwing*scale;
Field[4].DistMin = 0.005; Field[4].DistMax = 0.05; Field[4].StopAtDistMax = 1;
Field[5] = Min; Field[5].FieldsList = {2, 4};
Background Field = 5;

Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.Algorithm = 6;      // Frontal-Delaunay surfaces
Mesh.Algorithm3D = algo3d;
Mesh.Optimize = 1;
