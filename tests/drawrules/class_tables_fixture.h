// The tables every 4-piece test of drawrules/ needs, built once per process:
// dtw for the class materials and everything they reach, and the rule
// budgets of every class material. About a minute on 2 cores, which is why
// the 4-piece checks share one TEST_CASE (ctest runs each case in a process
// of its own).
#pragma once

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"

namespace dtb::test {

struct ClassTables {
  TableSet dtw{TableKind::Dtw};
  TableSet rules{TableKind::Rule};
};

inline const ClassTables& class_tables() {
  static const ClassTables tables = [] {
    ClassTables t;
    t.dtw = build_dtw(dependency_closure(class_materials()));
    t.rules = build_rules(t.dtw);
    return t;
  }();
  return tables;
}

}  // namespace dtb::test
