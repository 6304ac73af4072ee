// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers for tests that import small traces they write themselves.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include "ingest/importrunner.h"
#include "store/sqlitedb.h"

// Writes `bytes` to `path`; false (with a warning) when it cannot.
bool writeTestFile(const QString &path, const QByteArray &bytes);

// Imports `paths` into the workspace at `workspacePath` with the built-in importers; returns an
// empty string when every file was imported, else what went wrong (for QVERIFY2).
QString importIntoWorkspace(const QString &workspacePath, const QStringList &paths);

// Imports folders (a logdir, an mlruns/ tree) as the window does: files no importer recognises
// (artifacts, side files) are passed over. Returns an empty string when at least one file was
// imported and none failed, else what went wrong.
QString importFoldersIntoWorkspace(const QString &workspacePath, const QStringList &paths);

// Writes `json` to DIR/NAME and imports it into DIR/w.plumb; returns the workspace path, or an empty
// string (after a warning) when either step failed.
QString importTestJson(const QString &dir, const QString &name, const QByteArray &json);

// Imports `path` with the importer `importerId` alone, which reads it whatever its sniff() says of
// the bytes (crafted and fuzzed inputs reach the parser), through the real ImportRunner.
plumb::FileImportResult importWithImporter(
    const QString &workspacePath, const QString &importerId, const QString &path);

// Creates a workspace file at `path` as a build of schema `version` left it (the first `version`
// migrations, user_version set), for upgrade tests; returns its connection for rows of that schema.
plumb::SqliteDb createWorkspaceAtSchema(const QString &path, int version);
