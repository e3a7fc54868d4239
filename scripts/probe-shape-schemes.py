#!/usr/bin/env python3
# The shape function x update scheme table of docs/mpm-contact.md ("Shape function and update
# scheme"): a block on a rigid floor under tilted gravity, keys a user would leave out left out,
# acceleration fitted over 0.1-0.4 s against g (sin th - mu cos th).
# Usage: /usr/bin/python3 scripts/probe-shape-schemes.py [BUILD]   (BUILD defaults to build)
import math, subprocess, sys, csv, os, tempfile
tribo = os.path.abspath(os.path.join(sys.argv[1] if len(sys.argv) > 1 else "build", "tribo"))
os.chdir(tempfile.mkdtemp(prefix="tribo-probe-"))
def deck(name, theta, mu, shape, update, cell, ppc=2, extra=""):
    g=9.81; gx=g*math.sin(math.radians(theta)); gy=-g*math.cos(math.radians(theta))
    return f"""title: probe {name}
method: mpm
dimension: 2
thickness: 1.0
time: {{end: 0.4}}
gravity: [{gx}, {gy}]
materials:
  - {{name: block, model: linear-elastic, density: 1000, youngs_modulus: 1.0e6, poisson_ratio: 0.3}}
  - {{name: floor, model: rigid}}
bodies:
  - {{name: block, material: block, geometry: {{box: {{min: [0.1, 0.1], max: [0.2, 0.15]}}}}}}
  - {{name: floor, material: floor, geometry: {{box: {{min: [0, 0.08], max: [1.5, 0.1]}}}}}}
mpm:
  grid: {{min: [0, 0], max: [1.5, 0.25], cell: {cell}}}
  particles_per_cell: {ppc}
  shape_function: {shape}
  update: {update}
  contact:
    pairs:
      - {{materials: [block, floor], law: coulomb, friction: {mu}}}
{extra}output:
  directory: out/{name}
  every: 0.01
  history:
    - {{quantity: centroid, body: block}}
"""
cases=[]
for theta,mu in [(30,0.3),(20,0.1),(45,0.5),(35,0.2)]:
    for shape in ["gimp","linear","bspline2"]:
        for update in ["usl","musl"]:
            cases.append((theta,mu,shape,update,0.005))
cases += [(30,0.3,"gimp","usf",0.005),(30,0.3,"gimp","usl",0.0025),(30,0.3,"bspline2","musl",0.0025)]
res=[]
for (theta,mu,shape,update,cell) in cases:
    name=f"t{theta}_mu{mu}_{shape}_{update}_{cell}"
    open(name+".yaml","w").write(deck(name,theta,mu,shape,update,cell))
    r=subprocess.run([tribo,"run",name+".yaml","-q","-t","1","--output","out/"+name],capture_output=True,text=True)
    if r.returncode!=0: print(name,"FAILED",r.stderr[-300:]); continue
    rows=list(csv.reader(open("out/"+name+"/history.csv")))
    hdr=rows[0]; ti=hdr.index("time"); xi=hdr.index("centroid.block.x")
    data=[(float(r[ti]),float(r[xi])) for r in rows[1:] if float(r[ti])>=0.1]
    # fit x = c0 + c1 t + a/2 t^2
    import numpy as np
    t=np.array([d[0] for d in data]); x=np.array([d[1] for d in data])
    A=np.vstack([np.ones_like(t),t,0.5*t*t]).T
    a=np.linalg.lstsq(A,x,rcond=None)[0][2]
    th=math.radians(theta); ref=9.81*(math.sin(th)-mu*math.cos(th))
    print(f"{name:40s} a={a:.4f} ref={ref:.4f} err={100*(a-ref)/ref:+.2f}%", flush=True)
