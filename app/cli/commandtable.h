#pragma once

#include "cli/command.h"

#include <QCommandLineOption>
#include <QList>

#include <span>

namespace Gatehouse::Cli {

// Every command of `gatehouse admin`, grouped as the help shows them.
std::span<const Command> commands();

bool isNoun(const QString &noun);
bool isClusterNoun(const QString &noun);

// The command `gatehouse admin NOUN WORDS...` names and the words it is given. No command:
// misused is the one whose verb matched but not the number of words, if any.
struct Match
{
    const Command *command = nullptr;
    QStringList args;
    const Command *misused = nullptr;
};
Match findCommand(const QString &noun, const QStringList &words);

// "NOUN VERB SYNOPSIS", as the usage errors quote it.
QString usage(const Command &c);
// Every command's "  gatehouse admin NOUN VERB SYNOPSIS" line.
QString usageLines();
// "usage:" and the cluster nouns' lines on err; returns 2.
int printClusterUsage(QTextStream &err);

// `gatehouse admin --help`: every command with its help line, then the options. With a noun:
// only its commands, and only the options their synopses name besides the common ones.
QString helpText(const QList<QCommandLineOption> &common, const QList<QCommandLineOption> &others,
                 const QString &noun = {});

} // namespace Gatehouse::Cli
