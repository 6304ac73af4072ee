// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "analysis/objectivecheck.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace plumb {

class Workspace;

// `plumb check`: an objectives file evaluated on the workspace (analysis/objectivecheck.h), as a
// table of text, as plumb.check/1 JSON (docs/json.md) and as JUnit XML for CI systems.
struct CheckPresentation {
    CheckReport report;
    QString objectivesPath; // as given on the command line
    bool allowMissing = false; // --allow-missing: an objective without data does not break the gate

    // An objective is broken, or one has no data and that is not allowed: the gate fails.
    [[nodiscard]] bool broken() const;
};

// Reads and parses the objectives file at `path`; nullopt with `error` set ("cannot read ...",
// "file:line:column: message") when it cannot.
[[nodiscard]] std::optional<ObjectivesFile> readObjectivesFile(const QString &path, QString &error);

// evaluateObjectives() with Plumb's built-in quantities. Throws CheckInputError for a run that cannot
// be found (unknown or ambiguous), SqlError on a workspace error.
[[nodiscard]] CheckPresentation checkObjectives(Workspace &workspace, const ObjectivesFile &file,
    const QString &objectivesPath, const CheckOptions &options, bool allowMissing);

[[nodiscard]] QJsonObject checkJson(const CheckPresentation &p);
// A row per objective (status, name, value, threshold, margin) and its detail, then the counts.
[[nodiscard]] QString checkText(const CheckPresentation &p);
// JUnit XML as CI systems read it: one test case per objective, a broken one a <failure>, one without
// data a <failure> too, or <skipped> with allowMissing.
[[nodiscard]] QByteArray checkJUnit(const CheckPresentation &p);

} // namespace plumb
