// Hybrid mesh around the NASA TMR NACA 0012 (sharp trailing edge, chord 1) for laminar cases:
// a layer of quadrilaterals on the airfoil (gmsh's BoundaryLayer field, a fan of quadrilaterals
// at the trailing edge) and triangles out to a circular far field R chords from mid-chord. Used
// by bench/naca0012_cgrid.sh --hybrid:
//   gmsh bench/naca0012_hybrid.geo -2 -setnumber refine 2 -o naca0012_hybrid_r2.msh
// refine K divides every length by K (about K^2 times the cells: K = 1 gives 30,484 cells:
// 6,790 quadrilaterals and 23,694 triangles). Wall spacing h1 / K growing by ratio^(1/K) over
// the layer's thickness blt; surface spacing 0.002 / K at the leading edge, growing with x to
// 0.02 / K, 0.005 / K at the trailing edge; triangle size (0.012 + 0.06 x distance to the
// airfoil) / K. Physical groups: airfoil, farfield, surface fluid.
DefineConstant[ refine = 1,     // K: lengths / K
                R = 30,         // far-field radius (chords)
                h1 = 2e-3,      // first wall spacing at refine 1
                ratio = 1.1,    // growth of the quadrilateral layer at refine 1
                blt = 0.04,     // thickness of the quadrilateral layer
                np = 120 ];     // spline points per side
K = refine;
If (K <= 0)
  Error("refine must be positive");
EndIf
// TMR NACA 0012, sharp trailing edge: y = a (c0 t + c1 t^2 + c2 t^4 + c3 t^6 + c4 t^8), x = t^2
ca = 0.594689181;
c0 = 0.298222773; c1 = -0.127125232; c2 = -0.357907906; c3 = 0.291984971; c4 = -0.105174606;
lc = 0.02/K;
pte = newp; Point(pte) = {1, 0, 0, 0.005/K};
pu[] = {};
For i In {1:np-1} // upper surface from the trailing edge, cosine spacing in x
  x = 0.5*(1 - Cos(Pi*(np - i)/np)); t = Sqrt(x);
  q = newp; Point(q) = {x, ca*(c0*t + c1*x + c2*x^2 + c3*x^3 + c4*x^4), 0, Min(lc, (0.002 + 0.05*x)/K)};
  pu[] += q;
EndFor
ple = newp; Point(ple) = {0, 0, 0, 0.002/K};
pl[] = {};
For i In {1:np-1} // lower surface from the leading edge
  x = 0.5*(1 - Cos(Pi*i/np)); t = Sqrt(x);
  q = newp; Point(q) = {x, -ca*(c0*t + c1*x + c2*x^2 + c3*x^3 + c4*x^4), 0, Min(lc, (0.002 + 0.05*x)/K)};
  pl[] += q;
EndFor
up = newl; Spline(up) = {pte, pu[], ple};
lo = newl; Spline(lo) = {ple, pl[], pte};
pc = newp; Point(pc) = {0.5, 0, 0, 1};
lf = R*2*Pi/64;
f1 = newp; Point(f1) = {0.5 + R, 0, 0, lf};
f2 = newp; Point(f2) = {0.5, R, 0, lf};
f3 = newp; Point(f3) = {0.5 - R, 0, 0, lf};
f4 = newp; Point(f4) = {0.5, -R, 0, lf};
a1 = newl; Circle(a1) = {f1, pc, f2};
a2 = newl; Circle(a2) = {f2, pc, f3};
a3 = newl; Circle(a3) = {f3, pc, f4};
a4 = newl; Circle(a4) = {f4, pc, f1};
outer = newll; Curve Loop(outer) = {a1, a2, a3, a4};
inner = newll; Curve Loop(inner) = {up, lo};
s = news; Plane Surface(s) = {outer, inner};
Field[1] = BoundaryLayer;
Field[1].CurvesList = {up, lo};
Field[1].Size = h1/K;
Field[1].Ratio = ratio^(1/K);
Field[1].Thickness = blt;
Field[1].Quads = 1;
Field[1].FanPointsList = {pte};
Field[1].FanPointsSizesList = {Round(8*K)};
BoundaryLayer Field = 1;
Field[2] = Distance;
Field[2].CurvesList = {up, lo};
Field[2].NumPointsPerCurve = 400;
Field[3] = MathEval;
Field[3].F = Sprintf("(0.012 + 0.06*F2)/%g", K);
Background Field = 3;
Mesh.MeshSizeExtendFromBoundary = 0;
Mesh.Algorithm = 6; // Frontal-Delaunay
Physical Curve("airfoil") = {up, lo};
Physical Curve("farfield") = {a1, a2, a3, a4};
Physical Surface("fluid") = {s};
