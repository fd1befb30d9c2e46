#!/usr/bin/env python3
"""Decodes the Live Caller ID datasets `calldir export --live-caller-id` writes with PyPI's
`protobuf`, an implementation independent of calldir's own writer.

The messages are built from the published schemas' facts (Spec/LIVE-CALLER-ID.md):
apple.swift_homomorphic_encryption.pir.v1.KeywordDatabase { repeated KeywordDatabaseRow rows = 1 },
KeywordDatabaseRow { bytes keyword = 1; bytes value = 2 }, and the example's
CallIdentity { string name = 1; Icon icon = 2; uint32 cache_expiry_minutes = 3;
IdentityCategory category = 4 }.

Usage: decode-live-caller-id.py OUTDIR
Prints one line a row: `block<TAB>KEYWORD<TAB>VALUE-HEX`, then
`identity<TAB>KEYWORD<TAB>NAME<TAB>MINUTES<TAB>CATEGORY`; exits 3 when protobuf is missing.
"""
import sys

try:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
except ImportError:
    print("the Python module protobuf is not installed", file=sys.stderr)
    sys.exit(3)

F = descriptor_pb2.FieldDescriptorProto


def field(message, name, number, kind, label=F.LABEL_OPTIONAL, type_name=None):
    entry = message.field.add(name=name, number=number, type=kind, label=label)
    if type_name:
        entry.type_name = type_name


def build_pool():
    pool = descriptor_pool.DescriptorPool()
    pir = descriptor_pb2.FileDescriptorProto(
        name="pir_database.proto", package="apple.swift_homomorphic_encryption.pir.v1", syntax="proto3")
    row = pir.message_type.add(name="KeywordDatabaseRow")
    field(row, "keyword", 1, F.TYPE_BYTES)
    field(row, "value", 2, F.TYPE_BYTES)
    database = pir.message_type.add(name="KeywordDatabase")
    field(database, "rows", 1, F.TYPE_MESSAGE, F.LABEL_REPEATED,
          ".apple.swift_homomorphic_encryption.pir.v1.KeywordDatabaseRow")
    pool.Add(pir)

    identity = descriptor_pb2.FileDescriptorProto(name="CallIdentity.proto", syntax="proto3")
    image = identity.enum_type.add(name="ImageFormat")
    image.value.add(name="IMAGE_FORMAT_UNSPECIFIED", number=0)
    image.value.add(name="IMAGE_FORMAT_HEIC", number=1)
    category = identity.enum_type.add(name="IdentityCategory")
    category.value.add(name="IDENTITY_CATEGORY_UNSPECIFIED", number=0)
    category.value.add(name="IDENTITY_CATEGORY_PERSON", number=1)
    category.value.add(name="IDENTITY_CATEGORY_BUSINESS", number=2)
    icon = identity.message_type.add(name="Icon")
    field(icon, "format", 1, F.TYPE_ENUM, type_name=".ImageFormat")
    field(icon, "image", 2, F.TYPE_BYTES)
    call = identity.message_type.add(name="CallIdentity")
    field(call, "name", 1, F.TYPE_STRING)
    field(call, "icon", 2, F.TYPE_MESSAGE, type_name=".Icon")
    field(call, "cache_expiry_minutes", 3, F.TYPE_UINT32)
    field(call, "category", 4, F.TYPE_ENUM, type_name=".IdentityCategory")
    pool.Add(identity)
    return pool


def main():
    pool = build_pool()
    database_class = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("apple.swift_homomorphic_encryption.pir.v1.KeywordDatabase"))
    identity_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("CallIdentity"))
    out = sys.argv[1]
    block = database_class()
    with open(out + "/block.binpb", "rb") as handle:
        block.ParseFromString(handle.read())
    for row in block.rows:
        print("block\t%s\t%s" % (row.keyword.decode("ascii"), row.value.hex()))
    identities = database_class()
    with open(out + "/identity.binpb", "rb") as handle:
        identities.ParseFromString(handle.read())
    for row in identities.rows:
        identity = identity_class()
        identity.ParseFromString(row.value)
        # Re-encoding gives the same bytes: nothing unknown was in the value.
        assert identity.SerializeToString() == row.value, row.keyword
        name = identity.name.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        print("identity\t%s\t%s\t%d\t%d" % (
            row.keyword.decode("ascii"), name, identity.cache_expiry_minutes, identity.category))


main()
