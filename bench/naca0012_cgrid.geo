// Structured C-grid (quadrilaterals) around the NASA TMR NACA 0012 (sharp trailing edge, chord 1)
// for the TMR 2D NACA 0012 validation case (SA, M 0.15, Re 6 million, alpha 10 deg). Used by
// bench/naca0012_cgrid.sh:
//   gmsh bench/naca0012_cgrid.geo -2 -setnumber refine 2 -format msh22 -o naca0012_cgrid_r2.msh
// refine K gives (224 K + 1) x (64 K + 1) nodes like the TMR grids (K = 1: 225 x 65, 2: 449 x 129,
// 4: 897 x 257): 128 K cells along the airfoil, 48 K along each side of the wake cut, 64 K normal
// to the wall. Defaults follow the TMR / SU2 225 x 65 grid divided by K: first wall spacing
// 3.66e-6 / K, streamwise spacing 4.27e-4 / K at the leading edge and 4.2e-3 / K at the trailing
// edge (like the TMR validation grids and grid family I, not family II's finer trailing edge:
// set dste), far field 500 chords from the trailing edge, outflow plane at x = 501.
//
// Layout (upper half; the lower half is its mirror image): an inner layer of thickness D where
// the grid lines are the airfoil normals (exact, since every block is a ruled transfinite
// interpolation between straight sides with the same normalised point distribution), an outer
// layer from the offset curve to the far-field circle (radius R about the trailing edge), and two
// wake blocks behind the trailing edge ray out to x = 1 + R. Every curve is a chain of straight
// segments between points computed here, so the .geo controls every boundary node exactly.
// 8 transfinite surfaces, recombined into quads. Physical groups: airfoil, farfield (the
// C-shaped far field and the outflow plane), surface fluid.
DefineConstant[ refine = 1,        // K: cells x K in each direction
                R = 500,           // far-field distance (chords), also wake length
                D = 0.25,          // thickness of the inner (normal-line) layer
                h1 = 3.66e-6,      // first wall spacing at refine 1 (divided by K)
                dsle = 4.27e-4,    // streamwise spacing at the leading edge at refine 1
                dste = 4.2e-3,     // streamwise spacing at the trailing edge at refine 1
                lambda = 0.45 ];   // far-field point angles: lambda x (uniform in offset-curve
                                   // arclength) + (1 - lambda) x (direction of the wall normal)
K = Round(refine);
If (K < 1)
  Error("refine must be an integer >= 1");
EndIf
Ns = 64*K;   // cells along each airfoil surface
Nin = 34*K;  // cells normal to the wall in the inner layer
Nout = 30*K; // cells normal to the wall in the outer layer
Nw = 48*K;   // cells along the wake
hw = h1/K; sle = dsle/K; ste = dste/K;
xout = 1 + R;
Mesh.Smoothing = 0;

// TMR NACA 0012, sharp trailing edge: y = a (c0 t + c1 t^2 + c2 t^4 + c3 t^6 + c4 t^8), x = t^2
ca = 0.594689181;
c0 = 0.298222773; c1 = -0.127125232; c2 = -0.357907906; c3 = 0.291984971; c4 = -0.105174606;

// Normalised wall-normal distributions: inner layer geometric from hw over D; outer layer
// geometric from the next inner spacing over R - D (the length of the trailing-edge ray).
gr_h = hw; gr_L = D; gr_N = Nin; gr_lo = 1 + 1e-9; gr_hi = 4;
For gr_it In {1:200} // bisection for r: gr_h (r^gr_N - 1)/(r - 1) = gr_L
  gr_r = 0.5*(gr_lo + gr_hi);
  If (gr_h*(gr_r^gr_N - 1)/(gr_r - 1) > gr_L)
    gr_hi = gr_r;
  Else
    gr_lo = gr_r;
  EndIf
EndFor
rin = gr_r;
vin[0] = 0; s = 0; ds = hw;
For j In {1:Nin}
  s += ds; vin[j] = s; ds *= rin;
EndFor
For j In {1:Nin}
  vin[j] /= vin[Nin];
EndFor
hlast = hw*rin^(Nin - 1);
gr_h = hlast*rin; gr_L = R - D; gr_N = Nout; gr_lo = 1 + 1e-9; gr_hi = 4;
For gr_it In {1:200} // bisection for r: gr_h (r^gr_N - 1)/(r - 1) = gr_L
  gr_r = 0.5*(gr_lo + gr_hi);
  If (gr_h*(gr_r^gr_N - 1)/(gr_r - 1) > gr_L)
    gr_hi = gr_r;
  Else
    gr_lo = gr_r;
  EndIf
EndFor
rout = gr_r;
vout[0] = 0; s = 0; ds = hlast*rin;
For k In {1:Nout}
  s += ds; vout[k] = s; ds *= rout;
EndFor
For k In {1:Nout}
  vout[k] /= vout[Nout];
EndFor
// Wake: geometric from the trailing-edge spacing over R.
gr_h = ste; gr_L = R; gr_N = Nw; gr_lo = 1 + 1e-9; gr_hi = 4;
For gr_it In {1:200} // bisection for r: gr_h (r^gr_N - 1)/(r - 1) = gr_L
  gr_r = 0.5*(gr_lo + gr_hi);
  If (gr_h*(gr_r^gr_N - 1)/(gr_r - 1) > gr_L)
    gr_hi = gr_r;
  Else
    gr_lo = gr_r;
  EndIf
EndFor
rw = gr_r;
wk[0] = 0; s = 0; ds = ste;
For m In {1:Nw}
  s += ds; wk[m] = s; ds *= rw;
EndFor
For m In {1:Nw}
  wk[m] /= wk[Nw];
EndFor

// Airfoil parameter t (x = t^2) from the two-sided tanh stretching of Vinokur (1983), with the
// end spacings converted to t through |dP/dt| at the leading and trailing edges.
dpdt0 = ca*c0;
yp1 = ca*(c0 + 2*c1 + 4*c2 + 6*c3 + 8*c4);
dpdt1 = Sqrt(4 + yp1^2);
st0 = sle/dpdt0; st1 = ste/dpdt1;
vb = 1/(Ns*Sqrt(st0*st1));
If (vb <= 1)
  Error("leading/trailing-edge spacings too large for %g cells", Ns);
EndIf
vd = 2*Log(2*vb) + 2; // Newton for sinh(d)/d = vb, from above the root (monotone)
For it In {1:100}
  vd -= (Sinh(vd)/vd - vb)/(Cosh(vd)/vd - Sinh(vd)/vd^2);
EndFor
vA = Sqrt(st1/st0);
For i In {0:Ns}
  u = 0.5*(1 + Tanh(vd*(i/Ns - 0.5))/Tanh(vd/2));
  t = u/(vA + (1 - vA)*u);
  If (i == 0)
    t = 0;
  EndIf
  If (i == Ns)
    t = 1;
  EndIf
  ax[i] = t^2;
  ay[i] = ca*(c0*t + c1*t^2 + c2*t^4 + c3*t^6 + c4*t^8);
  dy = ca*(c0 + 2*c1*t + 4*c2*t^3 + 6*c3*t^5 + 8*c4*t^7);
  nn = Sqrt(dy^2 + 4*t^2);
  nx[i] = -dy/nn; ny[i] = 2*t/nn;   // outward normal of the upper surface
  If (i == Ns)
    ay[i] = 0;
  EndIf
  qx[i] = ax[i] + D*nx[i]; qy[i] = ay[i] + D*ny[i];
EndFor
// Far-field points: angle about the trailing edge, blending the wall-normal direction with a
// distribution uniform in the offset curve's arclength (both run from the trailing-edge normal
// to 180 degrees at the leading edge).
sq[0] = 0;
For i In {1:Ns}
  sq[i] = sq[i-1] + Sqrt((qx[i] - qx[i-1])^2 + (qy[i] - qy[i-1])^2);
EndFor
thte = Atan2(ny[Ns], nx[Ns]);
For i In {0:Ns}
  thn = Atan2(ny[i], nx[i]);
  ths = thte + (Pi - thte)*(1 - sq[i]/sq[Ns]);
  th = lambda*ths + (1 - lambda)*thn;
  If (i == 0)
    th = Pi;
  EndIf
  fx[i] = 1 + R*Cos(th); fy[i] = R*Sin(th);
EndFor
// Far-field top above the wake: geometric from the far-field spacing at the trailing-edge ray.
gr_h = Sqrt((fx[Ns] - fx[Ns-1])^2 + (fy[Ns] - fy[Ns-1])^2); gr_L = xout - fx[Ns]; gr_N = Nw;
gr_lo = 0.5; gr_hi = 4;
For gr_it In {1:200}
  gr_r = 0.5*(gr_lo + gr_hi);
  If (gr_h*(gr_r^gr_N - 1)/(gr_r - 1) > gr_L)
    gr_hi = gr_r;
  Else
    gr_lo = gr_r;
  EndIf
EndFor
wf[0] = 0; s = 0; ds = gr_h;
For m In {1:Nw}
  s += ds; wf[m] = s; ds *= gr_r;
EndFor
For m In {1:Nw}
  wf[m] /= wf[Nw];
EndFor

// Points. Upper half first; sign sg = +1 upper, -1 lower; points on y = 0 are shared.
pLE = newp; Point(pLE) = {0, 0, 0};
pTE = newp; Point(pTE) = {1, 0, 0};
pQLE = newp; Point(pQLE) = {-D, 0, 0};
pFLE = newp; Point(pFLE) = {1 - R, 0, 0};
pWO = newp; Point(pWO) = {xout, 0, 0};
// leading-edge ray (inner) and its continuation (outer), wake line
LR[0] = pLE; LR[Nin] = pQLE;
For j In {1:Nin-1}
  LR[j] = newp; Point(LR[j]) = {-D*vin[j], 0, 0};
EndFor
LO[0] = pQLE; LO[Nout] = pFLE;
For k In {1:Nout-1}
  LO[k] = newp; Point(LO[k]) = {-D + (1 - R + D)*vout[k], 0, 0};
EndFor
WK[0] = pTE; WK[Nw] = pWO;
For m In {1:Nw-1}
  WK[m] = newp; Point(WK[m]) = {1 + R*wk[m], 0, 0};
EndFor
For h In {0:1}
  sg = 1 - 2*h;
  // airfoil, offset curve, far field (index 0 at the leading edge, Ns at the trailing edge)
  A~{h}[0] = pLE; A~{h}[Ns] = pTE; Q~{h}[0] = pQLE; F~{h}[0] = pFLE;
  For i In {1:Ns}
    If (i < Ns)
      A~{h}[i] = newp; Point(A~{h}[i]) = {ax[i], sg*ay[i], 0};
    EndIf
    Q~{h}[i] = newp; Point(Q~{h}[i]) = {qx[i], sg*qy[i], 0};
    F~{h}[i] = newp; Point(F~{h}[i]) = {fx[i], sg*fy[i], 0};
  EndFor
  // trailing-edge ray (inner) and its continuation (outer)
  T~{h}[0] = pTE; T~{h}[Nin] = Q~{h}[Ns];
  For j In {1:Nin-1}
    T~{h}[j] = newp; Point(T~{h}[j]) = {1 + D*vin[j]*nx[Ns], sg*D*vin[j]*ny[Ns], 0};
  EndFor
  TO~{h}[0] = Q~{h}[Ns]; TO~{h}[Nout] = F~{h}[Ns];
  For k In {1:Nout-1}
    TO~{h}[k] = newp;
    Point(TO~{h}[k]) = {qx[Ns] + vout[k]*(fx[Ns] - qx[Ns]), sg*(qy[Ns] + vout[k]*(fy[Ns] - qy[Ns])), 0};
  EndFor
  // top of the inner wake block (same distribution as the wake) and far-field top
  WI~{h}[0] = Q~{h}[Ns]; WF~{h}[0] = F~{h}[Ns];
  For m In {1:Nw}
    WI~{h}[m] = newp; Point(WI~{h}[m]) = {qx[Ns] + wk[m]*(xout - qx[Ns]), sg*qy[Ns], 0};
    WF~{h}[m] = newp; Point(WF~{h}[m]) = {fx[Ns] + wf[m]*(xout - fx[Ns]), sg*fy[Ns], 0};
  EndFor
  // outflow plane: inner and outer parts
  OI~{h}[0] = pWO; OI~{h}[Nin] = WI~{h}[Nw];
  For j In {1:Nin-1}
    OI~{h}[j] = newp; Point(OI~{h}[j]) = {xout, sg*vin[j]*qy[Ns], 0};
  EndFor
  OO~{h}[0] = WI~{h}[Nw]; OO~{h}[Nout] = WF~{h}[Nw];
  For k In {1:Nout-1}
    OO~{h}[k] = newp; Point(OO~{h}[k]) = {xout, sg*(qy[Ns] + vout[k]*(fy[Ns] - qy[Ns])), 0};
  EndFor
EndFor

// Straight segments between consecutive points of each chain.
alll[] = {};
For j In {0:Nin-1}
  lLR[j] = newl; Line(lLR[j]) = {LR[j], LR[j+1]};
EndFor
For k In {0:Nout-1}
  lLO[k] = newl; Line(lLO[k]) = {LO[k], LO[k+1]};
EndFor
For m In {0:Nw-1}
  lWK[m] = newl; Line(lWK[m]) = {WK[m], WK[m+1]};
EndFor
alll[] += {lLR[], lLO[], lWK[]};
For h In {0:1}
  For i In {0:Ns-1}
    lA~{h}[i] = newl; Line(lA~{h}[i]) = {A~{h}[i], A~{h}[i+1]};
    lQ~{h}[i] = newl; Line(lQ~{h}[i]) = {Q~{h}[i], Q~{h}[i+1]};
    lF~{h}[i] = newl; Line(lF~{h}[i]) = {F~{h}[i], F~{h}[i+1]};
  EndFor
  For j In {0:Nin-1}
    lT~{h}[j] = newl; Line(lT~{h}[j]) = {T~{h}[j], T~{h}[j+1]};
    lOI~{h}[j] = newl; Line(lOI~{h}[j]) = {OI~{h}[j], OI~{h}[j+1]};
  EndFor
  For k In {0:Nout-1}
    lTO~{h}[k] = newl; Line(lTO~{h}[k]) = {TO~{h}[k], TO~{h}[k+1]};
    lOO~{h}[k] = newl; Line(lOO~{h}[k]) = {OO~{h}[k], OO~{h}[k+1]};
  EndFor
  For m In {0:Nw-1}
    lWI~{h}[m] = newl; Line(lWI~{h}[m]) = {WI~{h}[m], WI~{h}[m+1]};
    lWF~{h}[m] = newl; Line(lWF~{h}[m]) = {WF~{h}[m], WF~{h}[m+1]};
  EndFor
  alll[] += {lA~{h}[], lQ~{h}[], lF~{h}[], lT~{h}[], lOI~{h}[], lTO~{h}[], lOO~{h}[],
             lWI~{h}[], lWF~{h}[]};
EndFor
Transfinite Curve{alll[]} = 2;

// Blocks, each loop counter-clockwise, corners in loop order. Chains run from the leading edge
// (airfoil, offset curve, far field), outwards (rays, outflow) or downstream (wake).
// Curve lists: "+" along the chain, "-" against it, in traversal order.
surfs[] = {};
For h In {0:1}
  // inner airfoil block, outer airfoil block, inner wake block, outer wake block
  For b In {0:3}
    c[] = {};
    If (b == 0)      // airfoil, trailing-edge ray, offset curve, leading-edge ray
      For i In {0:Ns-1}
        c[] += {lA~{h}[i]};
      EndFor
      For j In {0:Nin-1}
        c[] += {lT~{h}[j]};
      EndFor
      For i In {Ns-1:0:-1}
        c[] += {-lQ~{h}[i]};
      EndFor
      For j In {Nin-1:0:-1}
        c[] += {-lLR[j]};
      EndFor
      cor[] = {pLE, pTE, Q~{h}[Ns], pQLE};
    ElseIf (b == 1)  // offset curve, trailing-edge outer ray, far field, leading-edge outer ray
      For i In {0:Ns-1}
        c[] += {lQ~{h}[i]};
      EndFor
      For k In {0:Nout-1}
        c[] += {lTO~{h}[k]};
      EndFor
      For i In {Ns-1:0:-1}
        c[] += {-lF~{h}[i]};
      EndFor
      For k In {Nout-1:0:-1}
        c[] += {-lLO[k]};
      EndFor
      cor[] = {pQLE, Q~{h}[Ns], F~{h}[Ns], pFLE};
    ElseIf (b == 2)  // wake, outflow (inner), inner wake top, trailing-edge ray
      For m In {0:Nw-1}
        c[] += {lWK[m]};
      EndFor
      For j In {0:Nin-1}
        c[] += {lOI~{h}[j]};
      EndFor
      For m In {Nw-1:0:-1}
        c[] += {-lWI~{h}[m]};
      EndFor
      For j In {Nin-1:0:-1}
        c[] += {-lT~{h}[j]};
      EndFor
      cor[] = {pTE, pWO, WI~{h}[Nw], Q~{h}[Ns]};
    Else             // inner wake top, outflow (outer), far-field top, trailing-edge outer ray
      For m In {0:Nw-1}
        c[] += {lWI~{h}[m]};
      EndFor
      For k In {0:Nout-1}
        c[] += {lOO~{h}[k]};
      EndFor
      For m In {Nw-1:0:-1}
        c[] += {-lWF~{h}[m]};
      EndFor
      For k In {Nout-1:0:-1}
        c[] += {-lTO~{h}[k]};
      EndFor
      cor[] = {Q~{h}[Ns], WI~{h}[Nw], WF~{h}[Nw], F~{h}[Ns]};
    EndIf
    If (h == 1)      // mirror image: reverse the loop to keep it counter-clockwise
      n = #c[];
      For i In {0:n-1}
        cr[i] = -c[n-1-i];
      EndFor
      c[] = cr[{0:n-1}];
      cor[] = {cor[3], cor[2], cor[1], cor[0]};
    EndIf
    cl = newll; Curve Loop(cl) = c[];
    s = news; Plane Surface(s) = {cl};
    Transfinite Surface{s} = cor[];
    Recombine Surface{s};
    surfs[] += {s};
  EndFor
EndFor

Physical Curve("airfoil") = {lA~{0}[], lA~{1}[]};
Physical Curve("farfield") = {lF~{0}[], lF~{1}[], lWF~{0}[], lWF~{1}[], lOI~{0}[], lOI~{1}[],
                              lOO~{0}[], lOO~{1}[]};
Physical Surface("fluid") = surfs[];

Printf("naca0012_cgrid: refine %g: %g x %g nodes, %g quads; wall spacing %.3g, ratios inner %.4f outer %.4f wake %.4f",
       K, 2*Nw + 2*Ns + 1, Nin + Nout + 1, (2*Nw + 2*Ns)*(Nin + Nout), hw, rin, rout, rw);
