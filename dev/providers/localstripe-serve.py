# Starts localstripe (PyPI, GPL-3.0; a stateful fake of Stripe's API, run in tests only) on loopback:
#   python dev/providers/localstripe-serve.py <port>
# Its own command line binds every interface and keeps its store in /tmp/localstripe.pickle, which
# two test runs at once would share; here each process keeps its own store in memory.
import sys

from aiohttp import web
from localstripe import server
from localstripe.resources import Store

Store.dump_to_disk = lambda self: None

web.run_app(server.app, host='127.0.0.1', port=int(sys.argv[1]), access_log=None, print=None)
