"""An extender's TLS client settings (extender.go makeTransport, client-go TLSConfigFor).

Built once per extender, before the plan starts, as kube-scheduler builds its transport
when it starts: bad TLS material stops the run with one line naming the field.
Certificate authorities load from memory. A client certificate and key given inline
must pass through files (Python's ssl has no in-memory API for them): they are written
to a private directory (mode 0700, files 0600) that is removed as soon as they are
loaded. Nothing in the TLS material is ever printed.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import shutil
import ssl
import tempfile

from ..config.extenders import TLS_FILE_LIMIT
from ..config.types import Extender, ExtenderTLSConfig
from ..readers import Unreadable, read_bounded
from ..record import record
from .errors import TLSSetupError

_PEM = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----\r?\n(.*?)-----END \1-----", re.DOTALL)


@record(frozen=True)
class Material:
    data: bytes
    field: str  # where it came from: tlsConfig.caData, tlsConfig.caFile, ...


def _data_or_file(tls: ExtenderTLSConfig, name: str) -> Material:
    """dataFromSliceOrFile: inline data wins over the file."""
    data, path = getattr(tls, f"{name}_data"), getattr(tls, f"{name}_file")
    if data:
        field = f"tlsConfig.{name}Data"
        try:
            return Material(base64.b64decode(data), field)
        except binascii.Error:  # configuration validation words it; kept for direct use
            raise TLSSetupError(field, "illegal base64 data") from None
    if path:
        field = f"tlsConfig.{name}File"
        try:
            return Material(read_bounded(path, *TLS_FILE_LIMIT), field)
        except OSError as exc:
            reason = (exc.strerror or str(exc)).lower()
            raise TLSSetupError(field, f"open {path}: {reason}") from None
        except Unreadable as exc:
            raise TLSSetupError(field, f"{path}: {exc} (ksched reads regular files only)") from None
    return Material(b"", "")


def ssl_context(ext: Extender) -> ssl.SSLContext:
    """The client context for ``ext`` or TLSSetupError; enableHTTPS without a CA skips checks."""
    tls = ext.tls_config or ExtenderTLSConfig()
    has_ca = bool(tls.ca_data or tls.ca_file)
    insecure = tls.insecure or (ext.enable_https and not has_ca)
    if has_ca and insecure:
        raise TLSSetupError(
            "tlsConfig.insecure",
            "specifying a root certificates file with the insecure flag is not allowed",
        )
    context = ssl.create_default_context()
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if insecure:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if has_ca:
        ca = _data_or_file(tls, "ca")
        context = _with_roots(context, ca.data, ca.field)
    cert, key = _data_or_file(tls, "cert"), _data_or_file(tls, "key")
    if cert.data and key.data:  # HasCertAuth: a certificate without a key is not used
        _load_pair(context, cert, key)
    return context


def _with_roots(context: ssl.SSLContext, pem: bytes, field: str) -> ssl.SSLContext:
    """Only the given CAs are trusted (rootCertPool); errors worded as client-go's."""
    fresh = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    fresh.minimum_version = context.minimum_version
    fresh.check_hostname = context.check_hostname
    fresh.verify_mode = context.verify_mode
    blocks = _PEM.findall(pem)
    if not blocks:
        raise TLSSetupError(field, _roots("unable to parse bytes as PEM block"))
    loaded = 0
    for kind, body in blocks:
        if kind != b"CERTIFICATE" or b":" in body:  # headers make Go skip the block
            continue
        try:
            fresh.load_verify_locations(cadata=base64.b64decode(body))
        except (ssl.SSLError, binascii.Error, ValueError) as exc:
            raise TLSSetupError(field, _roots(f"failed to parse certificate: {exc}")) from None
        loaded += 1
    if not loaded:
        raise TLSSetupError(field, _roots("no valid certificate authority data seen"))
    return fresh


def _roots(detail: str) -> str:
    return f"unable to load root certificates: {detail}"


def _load_pair(context: ssl.SSLContext, cert: Material, key: Material) -> None:
    """tls.X509KeyPair; the material passes through a private directory, removed at once."""
    if not _PEM.search(cert.data):
        raise TLSSetupError(cert.field, "tls: failed to find any PEM data in certificate input")
    if not _PEM.search(key.data):
        raise TLSSetupError(key.field, "tls: failed to find any PEM data in key input")
    directory = tempfile.mkdtemp(prefix="ksched-tls-")  # mode 0700
    try:
        # Files too: what was checked and read (bounded) is exactly what is loaded.
        cert_path = _private_file(directory, "c", cert.data)
        key_path = _private_file(directory, "k", key.data)
        try:
            context.load_cert_chain(cert_path, key_path)
        except ssl.SSLError as exc:
            if "KEY_VALUES_MISMATCH" in str(exc):
                raise TLSSetupError(
                    key.field, "tls: private key does not match public key"
                ) from None
            raise TLSSetupError(cert.field, f"tls: {exc.reason or exc}") from None
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _private_file(directory: str, name: str, data: bytes) -> str:
    path = os.path.join(directory, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return path
