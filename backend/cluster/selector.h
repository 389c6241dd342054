#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace Gatehouse::Cluster {

// A Kubernetes label selector ("a=b,c!=d,e in (x,y),!f,g") or field selector
// ("metadata.name=x,spec.nodeName!=y"), parsed once and matched against objects.
class Selector
{
public:
    // nullopt with *error set for a malformed selector.
    static std::optional<Selector> parseLabels(const QString &text, QString *error);
    // Fields: metadata.name, metadata.namespace, and those listed in extraFields.
    static std::optional<Selector> parseFields(const QString &text, const QStringList &extraFields,
                                               QString *error);

    bool isEmpty() const { return m_requirements.isEmpty(); }
    bool matchesLabels(const QJsonObject &object) const;
    bool matchesFields(const QJsonObject &object) const;

private:
    struct Requirement
    {
        enum class Op { Exists, NotExists, Equals, NotEquals, In, NotIn };
        QString key;
        Op op = Op::Exists;
        QStringList values;
        bool matches(bool present, const QString &value) const;
    };
    QList<Requirement> m_requirements;
};

// The value of a dotted field path ("spec.nodeName") in an object, as a string.
QString fieldValue(const QJsonObject &object, const QString &path);

} // namespace Gatehouse::Cluster
