# SPDX-License-Identifier: MIT
"""The lab's servers on 127.0.0.1 for the upload tests (tests/host/upload.t,
tests/boot/69-net-upload.t; docs/lab.md): Debian's nginx with a private
configuration in a scratch folder (WebDAV PUT, create_full_put_path; a 404
and a 500 location) and prometheus-pushgateway, each on a free port. Every
server started here is stopped by stop_all(), which the tests call whatever
ends them. free_port() and stop() serve tests/lib/scrape.py too."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PUSHGW = shutil.which("prometheus-pushgateway")
servers = []


def stop(p):
	"""Stops one server (and waits for it); None is nothing to stop.
	tests/lib/scrape.py's servers stop here too."""
	if p and p.poll() is None:
		p.terminate()
		try:
			p.wait(10)
		except subprocess.TimeoutExpired:
			p.kill()
			p.wait()


def stop_nginx():
	"""Stops the nginx started here: the lab's server gone down."""
	for p in servers:
		if p.args[0] == NGINX:
			stop(p)


def stop_all(tmp):
	"""Stops every server started here and removes tmp."""
	for p in servers:
		stop(p)
	servers.clear()
	shutil.rmtree(tmp, ignore_errors=True)


def stop_on_signals(tmp):
	"""SIGINT, SIGTERM, SIGHUP: stop_all(tmp), then exit."""
	def on_signal(sig, _frame):
		stop_all(tmp)
		sys.exit(128 + sig)
	for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
		signal.signal(s, on_signal)


def free_port():
	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		return s.getsockname()[1]


def wait_port(port, proc, seconds=20):
	"""True once 127.0.0.1:port accepts, False if proc ended or time ran out."""
	end = time.monotonic() + seconds
	while time.monotonic() < end and proc.poll() is None:
		try:
			socket.create_connection(("127.0.0.1", port), 1).close()
			return True
		except OSError:
			time.sleep(0.1)
	return False


NGINX_CONF = """
daemon off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
{user}
events {{ worker_connections 1024; }}
http {{
	access_log off;
	client_body_temp_path {d}/body;
	proxy_temp_path {d}/proxy;
	fastcgi_temp_path {d}/fastcgi;
	uwsgi_temp_path {d}/uwsgi;
	scgi_temp_path {d}/scgi;
	client_max_body_size 64m;
	server {{
		listen 127.0.0.1:{port};
		root {d}/www;
		location / {{
			dav_methods PUT;
			create_full_put_path on;
		}}
		location /e404/ {{ return 404; }}
		location /e500/ {{ return 500; }}
	}}
}}
"""


def start_nginx(tmp):
	"""nginx on a free port: (port, its web root), or (None, None) if it did not start."""
	d = os.path.join(tmp, "nginx")
	os.makedirs(os.path.join(d, "www"))
	port = free_port()
	conf = os.path.join(d, "nginx.conf")
	with open(conf, "w") as f:
		f.write(NGINX_CONF.format(d=d, port=port, user="user root;" if os.geteuid() == 0 else ""))
	p = subprocess.Popen([NGINX, "-p", d, "-c", conf, "-e", os.path.join(d, "error.log")],
			     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	servers.append(p)
	return (port, os.path.join(d, "www")) if wait_port(port, p) else (None, None)


def start_pushgateway():
	"""prometheus-pushgateway on a free port: the port, or None if it did not start."""
	port = free_port()
	p = subprocess.Popen([PUSHGW, "--web.listen-address=127.0.0.1:%d" % port],
			     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	servers.append(p)
	return port if wait_port(port, p) else None
