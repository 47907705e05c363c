import { g as getDefaultExportFromCjs } from './_commonjsHelpers.js';
import { I as InputError, S as SchemaError, r as replaceControlCharacters } from './errors.js';
import { createHash } from 'node:crypto';

var ajv$1 = {exports: {}};

var core$1 = {};

var validate = {};

var boolSchema = {};

var errors = {};

var codegen = {};

var code$1 = {};

var hasRequiredCode$1;

function requireCode$1 () {
	if (hasRequiredCode$1) return code$1;
	hasRequiredCode$1 = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.regexpCode = exports.getEsmExportName = exports.getProperty = exports.safeStringify = exports.stringify = exports.strConcat = exports.addCodeArg = exports.str = exports._ = exports.nil = exports._Code = exports.Name = exports.IDENTIFIER = exports._CodeOrName = void 0;
		// eslint-disable-next-line @typescript-eslint/no-extraneous-class
		class _CodeOrName {
		}
		exports._CodeOrName = _CodeOrName;
		exports.IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;
		class Name extends _CodeOrName {
		    constructor(s) {
		        super();
		        if (!exports.IDENTIFIER.test(s))
		            throw new Error("CodeGen: name must be a valid identifier");
		        this.str = s;
		    }
		    toString() {
		        return this.str;
		    }
		    emptyStr() {
		        return false;
		    }
		    get names() {
		        return { [this.str]: 1 };
		    }
		}
		exports.Name = Name;
		class _Code extends _CodeOrName {
		    constructor(code) {
		        super();
		        this._items = typeof code === "string" ? [code] : code;
		    }
		    toString() {
		        return this.str;
		    }
		    emptyStr() {
		        if (this._items.length > 1)
		            return false;
		        const item = this._items[0];
		        return item === "" || item === '""';
		    }
		    get str() {
		        var _a;
		        return ((_a = this._str) !== null && _a !== void 0 ? _a : (this._str = this._items.reduce((s, c) => `${s}${c}`, "")));
		    }
		    get names() {
		        var _a;
		        return ((_a = this._names) !== null && _a !== void 0 ? _a : (this._names = this._items.reduce((names, c) => {
		            if (c instanceof Name)
		                names[c.str] = (names[c.str] || 0) + 1;
		            return names;
		        }, {})));
		    }
		}
		exports._Code = _Code;
		exports.nil = new _Code("");
		function _(strs, ...args) {
		    const code = [strs[0]];
		    let i = 0;
		    while (i < args.length) {
		        addCodeArg(code, args[i]);
		        code.push(strs[++i]);
		    }
		    return new _Code(code);
		}
		exports._ = _;
		const plus = new _Code("+");
		function str(strs, ...args) {
		    const expr = [safeStringify(strs[0])];
		    let i = 0;
		    while (i < args.length) {
		        expr.push(plus);
		        addCodeArg(expr, args[i]);
		        expr.push(plus, safeStringify(strs[++i]));
		    }
		    optimize(expr);
		    return new _Code(expr);
		}
		exports.str = str;
		function addCodeArg(code, arg) {
		    if (arg instanceof _Code)
		        code.push(...arg._items);
		    else if (arg instanceof Name)
		        code.push(arg);
		    else
		        code.push(interpolate(arg));
		}
		exports.addCodeArg = addCodeArg;
		function optimize(expr) {
		    let i = 1;
		    while (i < expr.length - 1) {
		        if (expr[i] === plus) {
		            const res = mergeExprItems(expr[i - 1], expr[i + 1]);
		            if (res !== undefined) {
		                expr.splice(i - 1, 3, res);
		                continue;
		            }
		            expr[i++] = "+";
		        }
		        i++;
		    }
		}
		function mergeExprItems(a, b) {
		    if (b === '""')
		        return a;
		    if (a === '""')
		        return b;
		    if (typeof a == "string") {
		        if (b instanceof Name || a[a.length - 1] !== '"')
		            return;
		        if (typeof b != "string")
		            return `${a.slice(0, -1)}${b}"`;
		        if (b[0] === '"')
		            return a.slice(0, -1) + b.slice(1);
		        return;
		    }
		    if (typeof b == "string" && b[0] === '"' && !(a instanceof Name))
		        return `"${a}${b.slice(1)}`;
		    return;
		}
		function strConcat(c1, c2) {
		    return c2.emptyStr() ? c1 : c1.emptyStr() ? c2 : str `${c1}${c2}`;
		}
		exports.strConcat = strConcat;
		// TODO do not allow arrays here
		function interpolate(x) {
		    return typeof x == "number" || typeof x == "boolean" || x === null
		        ? x
		        : safeStringify(Array.isArray(x) ? x.join(",") : x);
		}
		function stringify(x) {
		    return new _Code(safeStringify(x));
		}
		exports.stringify = stringify;
		function safeStringify(x) {
		    return JSON.stringify(x)
		        .replace(/\u2028/g, "\\u2028")
		        .replace(/\u2029/g, "\\u2029");
		}
		exports.safeStringify = safeStringify;
		function getProperty(key) {
		    return typeof key == "string" && exports.IDENTIFIER.test(key) ? new _Code(`.${key}`) : _ `[${key}]`;
		}
		exports.getProperty = getProperty;
		//Does best effort to format the name properly
		function getEsmExportName(key) {
		    if (typeof key == "string" && exports.IDENTIFIER.test(key)) {
		        return new _Code(`${key}`);
		    }
		    throw new Error(`CodeGen: invalid export name: ${key}, use explicit $id name mapping`);
		}
		exports.getEsmExportName = getEsmExportName;
		function regexpCode(rx) {
		    return new _Code(rx.toString());
		}
		exports.regexpCode = regexpCode;
		
	} (code$1));
	return code$1;
}

var scope = {};

var hasRequiredScope;

function requireScope () {
	if (hasRequiredScope) return scope;
	hasRequiredScope = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.ValueScope = exports.ValueScopeName = exports.Scope = exports.varKinds = exports.UsedValueState = void 0;
		const code_1 = /*@__PURE__*/ requireCode$1();
		class ValueError extends Error {
		    constructor(name) {
		        super(`CodeGen: "code" for ${name} not defined`);
		        this.value = name.value;
		    }
		}
		var UsedValueState;
		(function (UsedValueState) {
		    UsedValueState[UsedValueState["Started"] = 0] = "Started";
		    UsedValueState[UsedValueState["Completed"] = 1] = "Completed";
		})(UsedValueState || (exports.UsedValueState = UsedValueState = {}));
		exports.varKinds = {
		    const: new code_1.Name("const"),
		    let: new code_1.Name("let"),
		    var: new code_1.Name("var"),
		};
		class Scope {
		    constructor({ prefixes, parent } = {}) {
		        this._names = {};
		        this._prefixes = prefixes;
		        this._parent = parent;
		    }
		    toName(nameOrPrefix) {
		        return nameOrPrefix instanceof code_1.Name ? nameOrPrefix : this.name(nameOrPrefix);
		    }
		    name(prefix) {
		        return new code_1.Name(this._newName(prefix));
		    }
		    _newName(prefix) {
		        const ng = this._names[prefix] || this._nameGroup(prefix);
		        return `${prefix}${ng.index++}`;
		    }
		    _nameGroup(prefix) {
		        var _a, _b;
		        if (((_b = (_a = this._parent) === null || _a === void 0 ? void 0 : _a._prefixes) === null || _b === void 0 ? void 0 : _b.has(prefix)) || (this._prefixes && !this._prefixes.has(prefix))) {
		            throw new Error(`CodeGen: prefix "${prefix}" is not allowed in this scope`);
		        }
		        return (this._names[prefix] = { prefix, index: 0 });
		    }
		}
		exports.Scope = Scope;
		class ValueScopeName extends code_1.Name {
		    constructor(prefix, nameStr) {
		        super(nameStr);
		        this.prefix = prefix;
		    }
		    setValue(value, { property, itemIndex }) {
		        this.value = value;
		        this.scopePath = (0, code_1._) `.${new code_1.Name(property)}[${itemIndex}]`;
		    }
		}
		exports.ValueScopeName = ValueScopeName;
		const line = (0, code_1._) `\n`;
		class ValueScope extends Scope {
		    constructor(opts) {
		        super(opts);
		        this._values = {};
		        this._scope = opts.scope;
		        this.opts = { ...opts, _n: opts.lines ? line : code_1.nil };
		    }
		    get() {
		        return this._scope;
		    }
		    name(prefix) {
		        return new ValueScopeName(prefix, this._newName(prefix));
		    }
		    value(nameOrPrefix, value) {
		        var _a;
		        if (value.ref === undefined)
		            throw new Error("CodeGen: ref must be passed in value");
		        const name = this.toName(nameOrPrefix);
		        const { prefix } = name;
		        const valueKey = (_a = value.key) !== null && _a !== void 0 ? _a : value.ref;
		        let vs = this._values[prefix];
		        if (vs) {
		            const _name = vs.get(valueKey);
		            if (_name)
		                return _name;
		        }
		        else {
		            vs = this._values[prefix] = new Map();
		        }
		        vs.set(valueKey, name);
		        const s = this._scope[prefix] || (this._scope[prefix] = []);
		        const itemIndex = s.length;
		        s[itemIndex] = value.ref;
		        name.setValue(value, { property: prefix, itemIndex });
		        return name;
		    }
		    getValue(prefix, keyOrRef) {
		        const vs = this._values[prefix];
		        if (!vs)
		            return;
		        return vs.get(keyOrRef);
		    }
		    scopeRefs(scopeName, values = this._values) {
		        return this._reduceValues(values, (name) => {
		            if (name.scopePath === undefined)
		                throw new Error(`CodeGen: name "${name}" has no value`);
		            return (0, code_1._) `${scopeName}${name.scopePath}`;
		        });
		    }
		    scopeCode(values = this._values, usedValues, getCode) {
		        return this._reduceValues(values, (name) => {
		            if (name.value === undefined)
		                throw new Error(`CodeGen: name "${name}" has no value`);
		            return name.value.code;
		        }, usedValues, getCode);
		    }
		    _reduceValues(values, valueCode, usedValues = {}, getCode) {
		        let code = code_1.nil;
		        for (const prefix in values) {
		            const vs = values[prefix];
		            if (!vs)
		                continue;
		            const nameSet = (usedValues[prefix] = usedValues[prefix] || new Map());
		            vs.forEach((name) => {
		                if (nameSet.has(name))
		                    return;
		                nameSet.set(name, UsedValueState.Started);
		                let c = valueCode(name);
		                if (c) {
		                    const def = this.opts.es5 ? exports.varKinds.var : exports.varKinds.const;
		                    code = (0, code_1._) `${code}${def} ${name} = ${c};${this.opts._n}`;
		                }
		                else if ((c = getCode === null || getCode === void 0 ? void 0 : getCode(name))) {
		                    code = (0, code_1._) `${code}${c}${this.opts._n}`;
		                }
		                else {
		                    throw new ValueError(name);
		                }
		                nameSet.set(name, UsedValueState.Completed);
		            });
		        }
		        return code;
		    }
		}
		exports.ValueScope = ValueScope;
		
	} (scope));
	return scope;
}

var hasRequiredCodegen;

function requireCodegen () {
	if (hasRequiredCodegen) return codegen;
	hasRequiredCodegen = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.or = exports.and = exports.not = exports.CodeGen = exports.operators = exports.varKinds = exports.ValueScopeName = exports.ValueScope = exports.Scope = exports.Name = exports.regexpCode = exports.stringify = exports.getProperty = exports.nil = exports.strConcat = exports.str = exports._ = void 0;
		const code_1 = /*@__PURE__*/ requireCode$1();
		const scope_1 = /*@__PURE__*/ requireScope();
		var code_2 = /*@__PURE__*/ requireCode$1();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return code_2._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return code_2.str; } });
		Object.defineProperty(exports, "strConcat", { enumerable: true, get: function () { return code_2.strConcat; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return code_2.nil; } });
		Object.defineProperty(exports, "getProperty", { enumerable: true, get: function () { return code_2.getProperty; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return code_2.stringify; } });
		Object.defineProperty(exports, "regexpCode", { enumerable: true, get: function () { return code_2.regexpCode; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return code_2.Name; } });
		var scope_2 = /*@__PURE__*/ requireScope();
		Object.defineProperty(exports, "Scope", { enumerable: true, get: function () { return scope_2.Scope; } });
		Object.defineProperty(exports, "ValueScope", { enumerable: true, get: function () { return scope_2.ValueScope; } });
		Object.defineProperty(exports, "ValueScopeName", { enumerable: true, get: function () { return scope_2.ValueScopeName; } });
		Object.defineProperty(exports, "varKinds", { enumerable: true, get: function () { return scope_2.varKinds; } });
		exports.operators = {
		    GT: new code_1._Code(">"),
		    GTE: new code_1._Code(">="),
		    LT: new code_1._Code("<"),
		    LTE: new code_1._Code("<="),
		    EQ: new code_1._Code("==="),
		    NEQ: new code_1._Code("!=="),
		    NOT: new code_1._Code("!"),
		    OR: new code_1._Code("||"),
		    AND: new code_1._Code("&&"),
		    ADD: new code_1._Code("+"),
		};
		class Node {
		    optimizeNodes() {
		        return this;
		    }
		    optimizeNames(_names, _constants) {
		        return this;
		    }
		}
		class Def extends Node {
		    constructor(varKind, name, rhs) {
		        super();
		        this.varKind = varKind;
		        this.name = name;
		        this.rhs = rhs;
		    }
		    render({ es5, _n }) {
		        const varKind = es5 ? scope_1.varKinds.var : this.varKind;
		        const rhs = this.rhs === undefined ? "" : ` = ${this.rhs}`;
		        return `${varKind} ${this.name}${rhs};` + _n;
		    }
		    optimizeNames(names, constants) {
		        if (!names[this.name.str])
		            return;
		        if (this.rhs)
		            this.rhs = optimizeExpr(this.rhs, names, constants);
		        return this;
		    }
		    get names() {
		        return this.rhs instanceof code_1._CodeOrName ? this.rhs.names : {};
		    }
		}
		class Assign extends Node {
		    constructor(lhs, rhs, sideEffects) {
		        super();
		        this.lhs = lhs;
		        this.rhs = rhs;
		        this.sideEffects = sideEffects;
		    }
		    render({ _n }) {
		        return `${this.lhs} = ${this.rhs};` + _n;
		    }
		    optimizeNames(names, constants) {
		        if (this.lhs instanceof code_1.Name && !names[this.lhs.str] && !this.sideEffects)
		            return;
		        this.rhs = optimizeExpr(this.rhs, names, constants);
		        return this;
		    }
		    get names() {
		        const names = this.lhs instanceof code_1.Name ? {} : { ...this.lhs.names };
		        return addExprNames(names, this.rhs);
		    }
		}
		class AssignOp extends Assign {
		    constructor(lhs, op, rhs, sideEffects) {
		        super(lhs, rhs, sideEffects);
		        this.op = op;
		    }
		    render({ _n }) {
		        return `${this.lhs} ${this.op}= ${this.rhs};` + _n;
		    }
		}
		class Label extends Node {
		    constructor(label) {
		        super();
		        this.label = label;
		        this.names = {};
		    }
		    render({ _n }) {
		        return `${this.label}:` + _n;
		    }
		}
		class Break extends Node {
		    constructor(label) {
		        super();
		        this.label = label;
		        this.names = {};
		    }
		    render({ _n }) {
		        const label = this.label ? ` ${this.label}` : "";
		        return `break${label};` + _n;
		    }
		}
		class Throw extends Node {
		    constructor(error) {
		        super();
		        this.error = error;
		    }
		    render({ _n }) {
		        return `throw ${this.error};` + _n;
		    }
		    get names() {
		        return this.error.names;
		    }
		}
		class AnyCode extends Node {
		    constructor(code) {
		        super();
		        this.code = code;
		    }
		    render({ _n }) {
		        return `${this.code};` + _n;
		    }
		    optimizeNodes() {
		        return `${this.code}` ? this : undefined;
		    }
		    optimizeNames(names, constants) {
		        this.code = optimizeExpr(this.code, names, constants);
		        return this;
		    }
		    get names() {
		        return this.code instanceof code_1._CodeOrName ? this.code.names : {};
		    }
		}
		class ParentNode extends Node {
		    constructor(nodes = []) {
		        super();
		        this.nodes = nodes;
		    }
		    render(opts) {
		        return this.nodes.reduce((code, n) => code + n.render(opts), "");
		    }
		    optimizeNodes() {
		        const { nodes } = this;
		        let i = nodes.length;
		        while (i--) {
		            const n = nodes[i].optimizeNodes();
		            if (Array.isArray(n))
		                nodes.splice(i, 1, ...n);
		            else if (n)
		                nodes[i] = n;
		            else
		                nodes.splice(i, 1);
		        }
		        return nodes.length > 0 ? this : undefined;
		    }
		    optimizeNames(names, constants) {
		        const { nodes } = this;
		        let i = nodes.length;
		        while (i--) {
		            // iterating backwards improves 1-pass optimization
		            const n = nodes[i];
		            if (n.optimizeNames(names, constants))
		                continue;
		            subtractNames(names, n.names);
		            nodes.splice(i, 1);
		        }
		        return nodes.length > 0 ? this : undefined;
		    }
		    get names() {
		        return this.nodes.reduce((names, n) => addNames(names, n.names), {});
		    }
		}
		class BlockNode extends ParentNode {
		    render(opts) {
		        return "{" + opts._n + super.render(opts) + "}" + opts._n;
		    }
		}
		class Root extends ParentNode {
		}
		class Else extends BlockNode {
		}
		Else.kind = "else";
		class If extends BlockNode {
		    constructor(condition, nodes) {
		        super(nodes);
		        this.condition = condition;
		    }
		    render(opts) {
		        let code = `if(${this.condition})` + super.render(opts);
		        if (this.else)
		            code += "else " + this.else.render(opts);
		        return code;
		    }
		    optimizeNodes() {
		        super.optimizeNodes();
		        const cond = this.condition;
		        if (cond === true)
		            return this.nodes; // else is ignored here
		        let e = this.else;
		        if (e) {
		            const ns = e.optimizeNodes();
		            e = this.else = Array.isArray(ns) ? new Else(ns) : ns;
		        }
		        if (e) {
		            if (cond === false)
		                return e instanceof If ? e : e.nodes;
		            if (this.nodes.length)
		                return this;
		            return new If(not(cond), e instanceof If ? [e] : e.nodes);
		        }
		        if (cond === false || !this.nodes.length)
		            return undefined;
		        return this;
		    }
		    optimizeNames(names, constants) {
		        var _a;
		        this.else = (_a = this.else) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
		        if (!(super.optimizeNames(names, constants) || this.else))
		            return;
		        this.condition = optimizeExpr(this.condition, names, constants);
		        return this;
		    }
		    get names() {
		        const names = super.names;
		        addExprNames(names, this.condition);
		        if (this.else)
		            addNames(names, this.else.names);
		        return names;
		    }
		}
		If.kind = "if";
		class For extends BlockNode {
		}
		For.kind = "for";
		class ForLoop extends For {
		    constructor(iteration) {
		        super();
		        this.iteration = iteration;
		    }
		    render(opts) {
		        return `for(${this.iteration})` + super.render(opts);
		    }
		    optimizeNames(names, constants) {
		        if (!super.optimizeNames(names, constants))
		            return;
		        this.iteration = optimizeExpr(this.iteration, names, constants);
		        return this;
		    }
		    get names() {
		        return addNames(super.names, this.iteration.names);
		    }
		}
		class ForRange extends For {
		    constructor(varKind, name, from, to) {
		        super();
		        this.varKind = varKind;
		        this.name = name;
		        this.from = from;
		        this.to = to;
		    }
		    render(opts) {
		        const varKind = opts.es5 ? scope_1.varKinds.var : this.varKind;
		        const { name, from, to } = this;
		        return `for(${varKind} ${name}=${from}; ${name}<${to}; ${name}++)` + super.render(opts);
		    }
		    get names() {
		        const names = addExprNames(super.names, this.from);
		        return addExprNames(names, this.to);
		    }
		}
		class ForIter extends For {
		    constructor(loop, varKind, name, iterable) {
		        super();
		        this.loop = loop;
		        this.varKind = varKind;
		        this.name = name;
		        this.iterable = iterable;
		    }
		    render(opts) {
		        return `for(${this.varKind} ${this.name} ${this.loop} ${this.iterable})` + super.render(opts);
		    }
		    optimizeNames(names, constants) {
		        if (!super.optimizeNames(names, constants))
		            return;
		        this.iterable = optimizeExpr(this.iterable, names, constants);
		        return this;
		    }
		    get names() {
		        return addNames(super.names, this.iterable.names);
		    }
		}
		class Func extends BlockNode {
		    constructor(name, args, async) {
		        super();
		        this.name = name;
		        this.args = args;
		        this.async = async;
		    }
		    render(opts) {
		        const _async = this.async ? "async " : "";
		        return `${_async}function ${this.name}(${this.args})` + super.render(opts);
		    }
		}
		Func.kind = "func";
		class Return extends ParentNode {
		    render(opts) {
		        return "return " + super.render(opts);
		    }
		}
		Return.kind = "return";
		class Try extends BlockNode {
		    render(opts) {
		        let code = "try" + super.render(opts);
		        if (this.catch)
		            code += this.catch.render(opts);
		        if (this.finally)
		            code += this.finally.render(opts);
		        return code;
		    }
		    optimizeNodes() {
		        var _a, _b;
		        super.optimizeNodes();
		        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNodes();
		        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNodes();
		        return this;
		    }
		    optimizeNames(names, constants) {
		        var _a, _b;
		        super.optimizeNames(names, constants);
		        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
		        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNames(names, constants);
		        return this;
		    }
		    get names() {
		        const names = super.names;
		        if (this.catch)
		            addNames(names, this.catch.names);
		        if (this.finally)
		            addNames(names, this.finally.names);
		        return names;
		    }
		}
		class Catch extends BlockNode {
		    constructor(error) {
		        super();
		        this.error = error;
		    }
		    render(opts) {
		        return `catch(${this.error})` + super.render(opts);
		    }
		}
		Catch.kind = "catch";
		class Finally extends BlockNode {
		    render(opts) {
		        return "finally" + super.render(opts);
		    }
		}
		Finally.kind = "finally";
		class CodeGen {
		    constructor(extScope, opts = {}) {
		        this._values = {};
		        this._blockStarts = [];
		        this._constants = {};
		        this.opts = { ...opts, _n: opts.lines ? "\n" : "" };
		        this._extScope = extScope;
		        this._scope = new scope_1.Scope({ parent: extScope });
		        this._nodes = [new Root()];
		    }
		    toString() {
		        return this._root.render(this.opts);
		    }
		    // returns unique name in the internal scope
		    name(prefix) {
		        return this._scope.name(prefix);
		    }
		    // reserves unique name in the external scope
		    scopeName(prefix) {
		        return this._extScope.name(prefix);
		    }
		    // reserves unique name in the external scope and assigns value to it
		    scopeValue(prefixOrName, value) {
		        const name = this._extScope.value(prefixOrName, value);
		        const vs = this._values[name.prefix] || (this._values[name.prefix] = new Set());
		        vs.add(name);
		        return name;
		    }
		    getScopeValue(prefix, keyOrRef) {
		        return this._extScope.getValue(prefix, keyOrRef);
		    }
		    // return code that assigns values in the external scope to the names that are used internally
		    // (same names that were returned by gen.scopeName or gen.scopeValue)
		    scopeRefs(scopeName) {
		        return this._extScope.scopeRefs(scopeName, this._values);
		    }
		    scopeCode() {
		        return this._extScope.scopeCode(this._values);
		    }
		    _def(varKind, nameOrPrefix, rhs, constant) {
		        const name = this._scope.toName(nameOrPrefix);
		        if (rhs !== undefined && constant)
		            this._constants[name.str] = rhs;
		        this._leafNode(new Def(varKind, name, rhs));
		        return name;
		    }
		    // `const` declaration (`var` in es5 mode)
		    const(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.const, nameOrPrefix, rhs, _constant);
		    }
		    // `let` declaration with optional assignment (`var` in es5 mode)
		    let(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.let, nameOrPrefix, rhs, _constant);
		    }
		    // `var` declaration with optional assignment
		    var(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.var, nameOrPrefix, rhs, _constant);
		    }
		    // assignment code
		    assign(lhs, rhs, sideEffects) {
		        return this._leafNode(new Assign(lhs, rhs, sideEffects));
		    }
		    // `+=` code
		    add(lhs, rhs) {
		        return this._leafNode(new AssignOp(lhs, exports.operators.ADD, rhs));
		    }
		    // appends passed SafeExpr to code or executes Block
		    code(c) {
		        if (typeof c == "function")
		            c();
		        else if (c !== code_1.nil)
		            this._leafNode(new AnyCode(c));
		        return this;
		    }
		    // returns code for object literal for the passed argument list of key-value pairs
		    object(...keyValues) {
		        const code = ["{"];
		        for (const [key, value] of keyValues) {
		            if (code.length > 1)
		                code.push(",");
		            code.push(key);
		            if (key !== value || this.opts.es5) {
		                code.push(":");
		                (0, code_1.addCodeArg)(code, value);
		            }
		        }
		        code.push("}");
		        return new code_1._Code(code);
		    }
		    // `if` clause (or statement if `thenBody` and, optionally, `elseBody` are passed)
		    if(condition, thenBody, elseBody) {
		        this._blockNode(new If(condition));
		        if (thenBody && elseBody) {
		            this.code(thenBody).else().code(elseBody).endIf();
		        }
		        else if (thenBody) {
		            this.code(thenBody).endIf();
		        }
		        else if (elseBody) {
		            throw new Error('CodeGen: "else" body without "then" body');
		        }
		        return this;
		    }
		    // `else if` clause - invalid without `if` or after `else` clauses
		    elseIf(condition) {
		        return this._elseNode(new If(condition));
		    }
		    // `else` clause - only valid after `if` or `else if` clauses
		    else() {
		        return this._elseNode(new Else());
		    }
		    // end `if` statement (needed if gen.if was used only with condition)
		    endIf() {
		        return this._endBlockNode(If, Else);
		    }
		    _for(node, forBody) {
		        this._blockNode(node);
		        if (forBody)
		            this.code(forBody).endFor();
		        return this;
		    }
		    // a generic `for` clause (or statement if `forBody` is passed)
		    for(iteration, forBody) {
		        return this._for(new ForLoop(iteration), forBody);
		    }
		    // `for` statement for a range of values
		    forRange(nameOrPrefix, from, to, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.let) {
		        const name = this._scope.toName(nameOrPrefix);
		        return this._for(new ForRange(varKind, name, from, to), () => forBody(name));
		    }
		    // `for-of` statement (in es5 mode replace with a normal for loop)
		    forOf(nameOrPrefix, iterable, forBody, varKind = scope_1.varKinds.const) {
		        const name = this._scope.toName(nameOrPrefix);
		        if (this.opts.es5) {
		            const arr = iterable instanceof code_1.Name ? iterable : this.var("_arr", iterable);
		            return this.forRange("_i", 0, (0, code_1._) `${arr}.length`, (i) => {
		                this.var(name, (0, code_1._) `${arr}[${i}]`);
		                forBody(name);
		            });
		        }
		        return this._for(new ForIter("of", varKind, name, iterable), () => forBody(name));
		    }
		    // `for-in` statement.
		    // With option `ownProperties` replaced with a `for-of` loop for object keys
		    forIn(nameOrPrefix, obj, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.const) {
		        if (this.opts.ownProperties) {
		            return this.forOf(nameOrPrefix, (0, code_1._) `Object.keys(${obj})`, forBody);
		        }
		        const name = this._scope.toName(nameOrPrefix);
		        return this._for(new ForIter("in", varKind, name, obj), () => forBody(name));
		    }
		    // end `for` loop
		    endFor() {
		        return this._endBlockNode(For);
		    }
		    // `label` statement
		    label(label) {
		        return this._leafNode(new Label(label));
		    }
		    // `break` statement
		    break(label) {
		        return this._leafNode(new Break(label));
		    }
		    // `return` statement
		    return(value) {
		        const node = new Return();
		        this._blockNode(node);
		        this.code(value);
		        if (node.nodes.length !== 1)
		            throw new Error('CodeGen: "return" should have one node');
		        return this._endBlockNode(Return);
		    }
		    // `try` statement
		    try(tryBody, catchCode, finallyCode) {
		        if (!catchCode && !finallyCode)
		            throw new Error('CodeGen: "try" without "catch" and "finally"');
		        const node = new Try();
		        this._blockNode(node);
		        this.code(tryBody);
		        if (catchCode) {
		            const error = this.name("e");
		            this._currNode = node.catch = new Catch(error);
		            catchCode(error);
		        }
		        if (finallyCode) {
		            this._currNode = node.finally = new Finally();
		            this.code(finallyCode);
		        }
		        return this._endBlockNode(Catch, Finally);
		    }
		    // `throw` statement
		    throw(error) {
		        return this._leafNode(new Throw(error));
		    }
		    // start self-balancing block
		    block(body, nodeCount) {
		        this._blockStarts.push(this._nodes.length);
		        if (body)
		            this.code(body).endBlock(nodeCount);
		        return this;
		    }
		    // end the current self-balancing block
		    endBlock(nodeCount) {
		        const len = this._blockStarts.pop();
		        if (len === undefined)
		            throw new Error("CodeGen: not in self-balancing block");
		        const toClose = this._nodes.length - len;
		        if (toClose < 0 || (nodeCount !== undefined && toClose !== nodeCount)) {
		            throw new Error(`CodeGen: wrong number of nodes: ${toClose} vs ${nodeCount} expected`);
		        }
		        this._nodes.length = len;
		        return this;
		    }
		    // `function` heading (or definition if funcBody is passed)
		    func(name, args = code_1.nil, async, funcBody) {
		        this._blockNode(new Func(name, args, async));
		        if (funcBody)
		            this.code(funcBody).endFunc();
		        return this;
		    }
		    // end function definition
		    endFunc() {
		        return this._endBlockNode(Func);
		    }
		    optimize(n = 1) {
		        while (n-- > 0) {
		            this._root.optimizeNodes();
		            this._root.optimizeNames(this._root.names, this._constants);
		        }
		    }
		    _leafNode(node) {
		        this._currNode.nodes.push(node);
		        return this;
		    }
		    _blockNode(node) {
		        this._currNode.nodes.push(node);
		        this._nodes.push(node);
		    }
		    _endBlockNode(N1, N2) {
		        const n = this._currNode;
		        if (n instanceof N1 || (N2 && n instanceof N2)) {
		            this._nodes.pop();
		            return this;
		        }
		        throw new Error(`CodeGen: not in block "${N2 ? `${N1.kind}/${N2.kind}` : N1.kind}"`);
		    }
		    _elseNode(node) {
		        const n = this._currNode;
		        if (!(n instanceof If)) {
		            throw new Error('CodeGen: "else" without "if"');
		        }
		        this._currNode = n.else = node;
		        return this;
		    }
		    get _root() {
		        return this._nodes[0];
		    }
		    get _currNode() {
		        const ns = this._nodes;
		        return ns[ns.length - 1];
		    }
		    set _currNode(node) {
		        const ns = this._nodes;
		        ns[ns.length - 1] = node;
		    }
		}
		exports.CodeGen = CodeGen;
		function addNames(names, from) {
		    for (const n in from)
		        names[n] = (names[n] || 0) + (from[n] || 0);
		    return names;
		}
		function addExprNames(names, from) {
		    return from instanceof code_1._CodeOrName ? addNames(names, from.names) : names;
		}
		function optimizeExpr(expr, names, constants) {
		    if (expr instanceof code_1.Name)
		        return replaceName(expr);
		    if (!canOptimize(expr))
		        return expr;
		    return new code_1._Code(expr._items.reduce((items, c) => {
		        if (c instanceof code_1.Name)
		            c = replaceName(c);
		        if (c instanceof code_1._Code)
		            items.push(...c._items);
		        else
		            items.push(c);
		        return items;
		    }, []));
		    function replaceName(n) {
		        const c = constants[n.str];
		        if (c === undefined || names[n.str] !== 1)
		            return n;
		        delete names[n.str];
		        return c;
		    }
		    function canOptimize(e) {
		        return (e instanceof code_1._Code &&
		            e._items.some((c) => c instanceof code_1.Name && names[c.str] === 1 && constants[c.str] !== undefined));
		    }
		}
		function subtractNames(names, from) {
		    for (const n in from)
		        names[n] = (names[n] || 0) - (from[n] || 0);
		}
		function not(x) {
		    return typeof x == "boolean" || typeof x == "number" || x === null ? !x : (0, code_1._) `!${par(x)}`;
		}
		exports.not = not;
		const andCode = mappend(exports.operators.AND);
		// boolean AND (&&) expression with the passed arguments
		function and(...args) {
		    return args.reduce(andCode);
		}
		exports.and = and;
		const orCode = mappend(exports.operators.OR);
		// boolean OR (||) expression with the passed arguments
		function or(...args) {
		    return args.reduce(orCode);
		}
		exports.or = or;
		function mappend(op) {
		    return (x, y) => (x === code_1.nil ? y : y === code_1.nil ? x : (0, code_1._) `${par(x)} ${op} ${par(y)}`);
		}
		function par(x) {
		    return x instanceof code_1.Name ? x : (0, code_1._) `(${x})`;
		}
		
	} (codegen));
	return codegen;
}

var util = {};

var hasRequiredUtil;

function requireUtil () {
	if (hasRequiredUtil) return util;
	hasRequiredUtil = 1;
	Object.defineProperty(util, "__esModule", { value: true });
	util.checkStrictMode = util.getErrorPath = util.Type = util.useFunc = util.setEvaluated = util.evaluatedPropsToName = util.mergeEvaluated = util.eachItem = util.unescapeJsonPointer = util.escapeJsonPointer = util.escapeFragment = util.unescapeFragment = util.schemaRefOrVal = util.schemaHasRulesButRef = util.schemaHasRules = util.checkUnknownRules = util.alwaysValidSchema = util.toHash = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const code_1 = /*@__PURE__*/ requireCode$1();
	// TODO refactor to use Set
	function toHash(arr) {
	    const hash = {};
	    for (const item of arr)
	        hash[item] = true;
	    return hash;
	}
	util.toHash = toHash;
	function alwaysValidSchema(it, schema) {
	    if (typeof schema == "boolean")
	        return schema;
	    if (Object.keys(schema).length === 0)
	        return true;
	    checkUnknownRules(it, schema);
	    return !schemaHasRules(schema, it.self.RULES.all);
	}
	util.alwaysValidSchema = alwaysValidSchema;
	function checkUnknownRules(it, schema = it.schema) {
	    const { opts, self } = it;
	    if (!opts.strictSchema)
	        return;
	    if (typeof schema === "boolean")
	        return;
	    const rules = self.RULES.keywords;
	    for (const key in schema) {
	        if (!rules[key])
	            checkStrictMode(it, `unknown keyword: "${key}"`);
	    }
	}
	util.checkUnknownRules = checkUnknownRules;
	function schemaHasRules(schema, rules) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (rules[key])
	            return true;
	    return false;
	}
	util.schemaHasRules = schemaHasRules;
	function schemaHasRulesButRef(schema, RULES) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (key !== "$ref" && RULES.all[key])
	            return true;
	    return false;
	}
	util.schemaHasRulesButRef = schemaHasRulesButRef;
	function schemaRefOrVal({ topSchemaRef, schemaPath }, schema, keyword, $data) {
	    if (!$data) {
	        if (typeof schema == "number" || typeof schema == "boolean")
	            return schema;
	        if (typeof schema == "string")
	            return (0, codegen_1._) `${schema}`;
	    }
	    return (0, codegen_1._) `${topSchemaRef}${schemaPath}${(0, codegen_1.getProperty)(keyword)}`;
	}
	util.schemaRefOrVal = schemaRefOrVal;
	function unescapeFragment(str) {
	    return unescapeJsonPointer(decodeURIComponent(str));
	}
	util.unescapeFragment = unescapeFragment;
	function escapeFragment(str) {
	    return encodeURIComponent(escapeJsonPointer(str));
	}
	util.escapeFragment = escapeFragment;
	function escapeJsonPointer(str) {
	    if (typeof str == "number")
	        return `${str}`;
	    return str.replace(/~/g, "~0").replace(/\//g, "~1");
	}
	util.escapeJsonPointer = escapeJsonPointer;
	function unescapeJsonPointer(str) {
	    return str.replace(/~1/g, "/").replace(/~0/g, "~");
	}
	util.unescapeJsonPointer = unescapeJsonPointer;
	function eachItem(xs, f) {
	    if (Array.isArray(xs)) {
	        for (const x of xs)
	            f(x);
	    }
	    else {
	        f(xs);
	    }
	}
	util.eachItem = eachItem;
	function makeMergeEvaluated({ mergeNames, mergeToName, mergeValues, resultToName, }) {
	    return (gen, from, to, toName) => {
	        const res = to === undefined
	            ? from
	            : to instanceof codegen_1.Name
	                ? (from instanceof codegen_1.Name ? mergeNames(gen, from, to) : mergeToName(gen, from, to), to)
	                : from instanceof codegen_1.Name
	                    ? (mergeToName(gen, to, from), from)
	                    : mergeValues(from, to);
	        return toName === codegen_1.Name && !(res instanceof codegen_1.Name) ? resultToName(gen, res) : res;
	    };
	}
	util.mergeEvaluated = {
	    props: makeMergeEvaluated({
	        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => {
	            gen.if((0, codegen_1._) `${from} === true`, () => gen.assign(to, true), () => gen.assign(to, (0, codegen_1._) `${to} || {}`).code((0, codegen_1._) `Object.assign(${to}, ${from})`));
	        }),
	        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => {
	            if (from === true) {
	                gen.assign(to, true);
	            }
	            else {
	                gen.assign(to, (0, codegen_1._) `${to} || {}`);
	                setEvaluated(gen, to, from);
	            }
	        }),
	        mergeValues: (from, to) => (from === true ? true : { ...from, ...to }),
	        resultToName: evaluatedPropsToName,
	    }),
	    items: makeMergeEvaluated({
	        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => gen.assign(to, (0, codegen_1._) `${from} === true ? true : ${to} > ${from} ? ${to} : ${from}`)),
	        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => gen.assign(to, from === true ? true : (0, codegen_1._) `${to} > ${from} ? ${to} : ${from}`)),
	        mergeValues: (from, to) => (from === true ? true : Math.max(from, to)),
	        resultToName: (gen, items) => gen.var("items", items),
	    }),
	};
	function evaluatedPropsToName(gen, ps) {
	    if (ps === true)
	        return gen.var("props", true);
	    const props = gen.var("props", (0, codegen_1._) `{}`);
	    if (ps !== undefined)
	        setEvaluated(gen, props, ps);
	    return props;
	}
	util.evaluatedPropsToName = evaluatedPropsToName;
	function setEvaluated(gen, props, ps) {
	    Object.keys(ps).forEach((p) => gen.assign((0, codegen_1._) `${props}${(0, codegen_1.getProperty)(p)}`, true));
	}
	util.setEvaluated = setEvaluated;
	const snippets = {};
	function useFunc(gen, f) {
	    return gen.scopeValue("func", {
	        ref: f,
	        code: snippets[f.code] || (snippets[f.code] = new code_1._Code(f.code)),
	    });
	}
	util.useFunc = useFunc;
	var Type;
	(function (Type) {
	    Type[Type["Num"] = 0] = "Num";
	    Type[Type["Str"] = 1] = "Str";
	})(Type || (util.Type = Type = {}));
	function getErrorPath(dataProp, dataPropType, jsPropertySyntax) {
	    // let path
	    if (dataProp instanceof codegen_1.Name) {
	        const isNumber = dataPropType === Type.Num;
	        return jsPropertySyntax
	            ? isNumber
	                ? (0, codegen_1._) `"[" + ${dataProp} + "]"`
	                : (0, codegen_1._) `"['" + ${dataProp} + "']"`
	            : isNumber
	                ? (0, codegen_1._) `"/" + ${dataProp}`
	                : (0, codegen_1._) `"/" + ${dataProp}.replace(/~/g, "~0").replace(/\\//g, "~1")`; // TODO maybe use global escapePointer
	    }
	    return jsPropertySyntax ? (0, codegen_1.getProperty)(dataProp).toString() : "/" + escapeJsonPointer(dataProp);
	}
	util.getErrorPath = getErrorPath;
	function checkStrictMode(it, msg, mode = it.opts.strictSchema) {
	    if (!mode)
	        return;
	    msg = `strict mode: ${msg}`;
	    if (mode === true)
	        throw new Error(msg);
	    it.self.logger.warn(msg);
	}
	util.checkStrictMode = checkStrictMode;
	
	return util;
}

var names = {};

var hasRequiredNames;

function requireNames () {
	if (hasRequiredNames) return names;
	hasRequiredNames = 1;
	Object.defineProperty(names, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names$1 = {
	    // validation function arguments
	    data: new codegen_1.Name("data"), // data passed to validation function
	    // args passed from referencing schema
	    valCxt: new codegen_1.Name("valCxt"), // validation/data context - should not be used directly, it is destructured to the names below
	    instancePath: new codegen_1.Name("instancePath"),
	    parentData: new codegen_1.Name("parentData"),
	    parentDataProperty: new codegen_1.Name("parentDataProperty"),
	    rootData: new codegen_1.Name("rootData"), // root data - same as the data passed to the first/top validation function
	    dynamicAnchors: new codegen_1.Name("dynamicAnchors"), // used to support recursiveRef and dynamicRef
	    // function scoped variables
	    vErrors: new codegen_1.Name("vErrors"), // null or array of validation errors
	    errors: new codegen_1.Name("errors"), // counter of validation errors
	    this: new codegen_1.Name("this"),
	    // "globals"
	    self: new codegen_1.Name("self"),
	    scope: new codegen_1.Name("scope"),
	    // JTD serialize/parse name for JSON string and position
	    json: new codegen_1.Name("json"),
	    jsonPos: new codegen_1.Name("jsonPos"),
	    jsonLen: new codegen_1.Name("jsonLen"),
	    jsonPart: new codegen_1.Name("jsonPart"),
	};
	names.default = names$1;
	
	return names;
}

var hasRequiredErrors;

function requireErrors () {
	if (hasRequiredErrors) return errors;
	hasRequiredErrors = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.extendErrors = exports.resetErrorsCount = exports.reportExtraError = exports.reportError = exports.keyword$DataError = exports.keywordError = void 0;
		const codegen_1 = /*@__PURE__*/ requireCodegen();
		const util_1 = /*@__PURE__*/ requireUtil();
		const names_1 = /*@__PURE__*/ requireNames();
		exports.keywordError = {
		    message: ({ keyword }) => (0, codegen_1.str) `must pass "${keyword}" keyword validation`,
		};
		exports.keyword$DataError = {
		    message: ({ keyword, schemaType }) => schemaType
		        ? (0, codegen_1.str) `"${keyword}" keyword must be ${schemaType} ($data)`
		        : (0, codegen_1.str) `"${keyword}" keyword is invalid ($data)`,
		};
		function reportError(cxt, error = exports.keywordError, errorPaths, overrideAllErrors) {
		    const { it } = cxt;
		    const { gen, compositeRule, allErrors } = it;
		    const errObj = errorObjectCode(cxt, error, errorPaths);
		    if (overrideAllErrors !== null && overrideAllErrors !== void 0 ? overrideAllErrors : (compositeRule || allErrors)) {
		        addError(gen, errObj);
		    }
		    else {
		        returnErrors(it, (0, codegen_1._) `[${errObj}]`);
		    }
		}
		exports.reportError = reportError;
		function reportExtraError(cxt, error = exports.keywordError, errorPaths) {
		    const { it } = cxt;
		    const { gen, compositeRule, allErrors } = it;
		    const errObj = errorObjectCode(cxt, error, errorPaths);
		    addError(gen, errObj);
		    if (!(compositeRule || allErrors)) {
		        returnErrors(it, names_1.default.vErrors);
		    }
		}
		exports.reportExtraError = reportExtraError;
		function resetErrorsCount(gen, errsCount) {
		    gen.assign(names_1.default.errors, errsCount);
		    gen.if((0, codegen_1._) `${names_1.default.vErrors} !== null`, () => gen.if(errsCount, () => gen.assign((0, codegen_1._) `${names_1.default.vErrors}.length`, errsCount), () => gen.assign(names_1.default.vErrors, null)));
		}
		exports.resetErrorsCount = resetErrorsCount;
		function extendErrors({ gen, keyword, schemaValue, data, errsCount, it, }) {
		    /* istanbul ignore if */
		    if (errsCount === undefined)
		        throw new Error("ajv implementation error");
		    const err = gen.name("err");
		    gen.forRange("i", errsCount, names_1.default.errors, (i) => {
		        gen.const(err, (0, codegen_1._) `${names_1.default.vErrors}[${i}]`);
		        gen.if((0, codegen_1._) `${err}.instancePath === undefined`, () => gen.assign((0, codegen_1._) `${err}.instancePath`, (0, codegen_1.strConcat)(names_1.default.instancePath, it.errorPath)));
		        gen.assign((0, codegen_1._) `${err}.schemaPath`, (0, codegen_1.str) `${it.errSchemaPath}/${keyword}`);
		        if (it.opts.verbose) {
		            gen.assign((0, codegen_1._) `${err}.schema`, schemaValue);
		            gen.assign((0, codegen_1._) `${err}.data`, data);
		        }
		    });
		}
		exports.extendErrors = extendErrors;
		function addError(gen, errObj) {
		    const err = gen.const("err", errObj);
		    gen.if((0, codegen_1._) `${names_1.default.vErrors} === null`, () => gen.assign(names_1.default.vErrors, (0, codegen_1._) `[${err}]`), (0, codegen_1._) `${names_1.default.vErrors}.push(${err})`);
		    gen.code((0, codegen_1._) `${names_1.default.errors}++`);
		}
		function returnErrors(it, errs) {
		    const { gen, validateName, schemaEnv } = it;
		    if (schemaEnv.$async) {
		        gen.throw((0, codegen_1._) `new ${it.ValidationError}(${errs})`);
		    }
		    else {
		        gen.assign((0, codegen_1._) `${validateName}.errors`, errs);
		        gen.return(false);
		    }
		}
		const E = {
		    keyword: new codegen_1.Name("keyword"),
		    schemaPath: new codegen_1.Name("schemaPath"), // also used in JTD errors
		    params: new codegen_1.Name("params"),
		    propertyName: new codegen_1.Name("propertyName"),
		    message: new codegen_1.Name("message"),
		    schema: new codegen_1.Name("schema"),
		    parentSchema: new codegen_1.Name("parentSchema"),
		};
		function errorObjectCode(cxt, error, errorPaths) {
		    const { createErrors } = cxt.it;
		    if (createErrors === false)
		        return (0, codegen_1._) `{}`;
		    return errorObject(cxt, error, errorPaths);
		}
		function errorObject(cxt, error, errorPaths = {}) {
		    const { gen, it } = cxt;
		    const keyValues = [
		        errorInstancePath(it, errorPaths),
		        errorSchemaPath(cxt, errorPaths),
		    ];
		    extraErrorProps(cxt, error, keyValues);
		    return gen.object(...keyValues);
		}
		function errorInstancePath({ errorPath }, { instancePath }) {
		    const instPath = instancePath
		        ? (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(instancePath, util_1.Type.Str)}`
		        : errorPath;
		    return [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, instPath)];
		}
		function errorSchemaPath({ keyword, it: { errSchemaPath } }, { schemaPath, parentSchema }) {
		    let schPath = parentSchema ? errSchemaPath : (0, codegen_1.str) `${errSchemaPath}/${keyword}`;
		    if (schemaPath) {
		        schPath = (0, codegen_1.str) `${schPath}${(0, util_1.getErrorPath)(schemaPath, util_1.Type.Str)}`;
		    }
		    return [E.schemaPath, schPath];
		}
		function extraErrorProps(cxt, { params, message }, keyValues) {
		    const { keyword, data, schemaValue, it } = cxt;
		    const { opts, propertyName, topSchemaRef, schemaPath } = it;
		    keyValues.push([E.keyword, keyword], [E.params, typeof params == "function" ? params(cxt) : params || (0, codegen_1._) `{}`]);
		    if (opts.messages) {
		        keyValues.push([E.message, typeof message == "function" ? message(cxt) : message]);
		    }
		    if (opts.verbose) {
		        keyValues.push([E.schema, schemaValue], [E.parentSchema, (0, codegen_1._) `${topSchemaRef}${schemaPath}`], [names_1.default.data, data]);
		    }
		    if (propertyName)
		        keyValues.push([E.propertyName, propertyName]);
		}
		
	} (errors));
	return errors;
}

var hasRequiredBoolSchema;

function requireBoolSchema () {
	if (hasRequiredBoolSchema) return boolSchema;
	hasRequiredBoolSchema = 1;
	Object.defineProperty(boolSchema, "__esModule", { value: true });
	boolSchema.boolOrEmptySchema = boolSchema.topBoolOrEmptySchema = void 0;
	const errors_1 = /*@__PURE__*/ requireErrors();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const boolError = {
	    message: "boolean schema is false",
	};
	function topBoolOrEmptySchema(it) {
	    const { gen, schema, validateName } = it;
	    if (schema === false) {
	        falseSchemaError(it, false);
	    }
	    else if (typeof schema == "object" && schema.$async === true) {
	        gen.return(names_1.default.data);
	    }
	    else {
	        gen.assign((0, codegen_1._) `${validateName}.errors`, null);
	        gen.return(true);
	    }
	}
	boolSchema.topBoolOrEmptySchema = topBoolOrEmptySchema;
	function boolOrEmptySchema(it, valid) {
	    const { gen, schema } = it;
	    if (schema === false) {
	        gen.var(valid, false); // TODO var
	        falseSchemaError(it);
	    }
	    else {
	        gen.var(valid, true); // TODO var
	    }
	}
	boolSchema.boolOrEmptySchema = boolOrEmptySchema;
	function falseSchemaError(it, overrideAllErrors) {
	    const { gen, data } = it;
	    // TODO maybe some other interface should be used for non-keyword validation errors...
	    const cxt = {
	        gen,
	        keyword: "false schema",
	        data,
	        schema: false,
	        schemaCode: false,
	        schemaValue: false,
	        params: {},
	        it,
	    };
	    (0, errors_1.reportError)(cxt, boolError, undefined, overrideAllErrors);
	}
	
	return boolSchema;
}

var dataType = {};

var rules = {};

var hasRequiredRules;

function requireRules () {
	if (hasRequiredRules) return rules;
	hasRequiredRules = 1;
	Object.defineProperty(rules, "__esModule", { value: true });
	rules.getRules = rules.isJSONType = void 0;
	const _jsonTypes = ["string", "number", "integer", "boolean", "null", "object", "array"];
	const jsonTypes = new Set(_jsonTypes);
	function isJSONType(x) {
	    return typeof x == "string" && jsonTypes.has(x);
	}
	rules.isJSONType = isJSONType;
	function getRules() {
	    const groups = {
	        number: { type: "number", rules: [] },
	        string: { type: "string", rules: [] },
	        array: { type: "array", rules: [] },
	        object: { type: "object", rules: [] },
	    };
	    return {
	        types: { ...groups, integer: true, boolean: true, null: true },
	        rules: [{ rules: [] }, groups.number, groups.string, groups.array, groups.object],
	        post: { rules: [] },
	        all: {},
	        keywords: {},
	    };
	}
	rules.getRules = getRules;
	
	return rules;
}

var applicability = {};

var hasRequiredApplicability;

function requireApplicability () {
	if (hasRequiredApplicability) return applicability;
	hasRequiredApplicability = 1;
	Object.defineProperty(applicability, "__esModule", { value: true });
	applicability.shouldUseRule = applicability.shouldUseGroup = applicability.schemaHasRulesForType = void 0;
	function schemaHasRulesForType({ schema, self }, type) {
	    const group = self.RULES.types[type];
	    return group && group !== true && shouldUseGroup(schema, group);
	}
	applicability.schemaHasRulesForType = schemaHasRulesForType;
	function shouldUseGroup(schema, group) {
	    return group.rules.some((rule) => shouldUseRule(schema, rule));
	}
	applicability.shouldUseGroup = shouldUseGroup;
	function shouldUseRule(schema, rule) {
	    var _a;
	    return (schema[rule.keyword] !== undefined ||
	        ((_a = rule.definition.implements) === null || _a === void 0 ? void 0 : _a.some((kwd) => schema[kwd] !== undefined)));
	}
	applicability.shouldUseRule = shouldUseRule;
	
	return applicability;
}

var hasRequiredDataType;

function requireDataType () {
	if (hasRequiredDataType) return dataType;
	hasRequiredDataType = 1;
	Object.defineProperty(dataType, "__esModule", { value: true });
	dataType.reportTypeError = dataType.checkDataTypes = dataType.checkDataType = dataType.coerceAndCheckDataType = dataType.getJSONTypes = dataType.getSchemaTypes = dataType.DataType = void 0;
	const rules_1 = /*@__PURE__*/ requireRules();
	const applicability_1 = /*@__PURE__*/ requireApplicability();
	const errors_1 = /*@__PURE__*/ requireErrors();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	var DataType;
	(function (DataType) {
	    DataType[DataType["Correct"] = 0] = "Correct";
	    DataType[DataType["Wrong"] = 1] = "Wrong";
	})(DataType || (dataType.DataType = DataType = {}));
	function getSchemaTypes(schema) {
	    const types = getJSONTypes(schema.type);
	    const hasNull = types.includes("null");
	    if (hasNull) {
	        if (schema.nullable === false)
	            throw new Error("type: null contradicts nullable: false");
	    }
	    else {
	        if (!types.length && schema.nullable !== undefined) {
	            throw new Error('"nullable" cannot be used without "type"');
	        }
	        if (schema.nullable === true)
	            types.push("null");
	    }
	    return types;
	}
	dataType.getSchemaTypes = getSchemaTypes;
	// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
	function getJSONTypes(ts) {
	    const types = Array.isArray(ts) ? ts : ts ? [ts] : [];
	    if (types.every(rules_1.isJSONType))
	        return types;
	    throw new Error("type must be JSONType or JSONType[]: " + types.join(","));
	}
	dataType.getJSONTypes = getJSONTypes;
	function coerceAndCheckDataType(it, types) {
	    const { gen, data, opts } = it;
	    const coerceTo = coerceToTypes(types, opts.coerceTypes);
	    const checkTypes = types.length > 0 &&
	        !(coerceTo.length === 0 && types.length === 1 && (0, applicability_1.schemaHasRulesForType)(it, types[0]));
	    if (checkTypes) {
	        const wrongType = checkDataTypes(types, data, opts.strictNumbers, DataType.Wrong);
	        gen.if(wrongType, () => {
	            if (coerceTo.length)
	                coerceData(it, types, coerceTo);
	            else
	                reportTypeError(it);
	        });
	    }
	    return checkTypes;
	}
	dataType.coerceAndCheckDataType = coerceAndCheckDataType;
	const COERCIBLE = new Set(["string", "number", "integer", "boolean", "null"]);
	function coerceToTypes(types, coerceTypes) {
	    return coerceTypes
	        ? types.filter((t) => COERCIBLE.has(t) || (coerceTypes === "array" && t === "array"))
	        : [];
	}
	function coerceData(it, types, coerceTo) {
	    const { gen, data, opts } = it;
	    const dataType = gen.let("dataType", (0, codegen_1._) `typeof ${data}`);
	    const coerced = gen.let("coerced", (0, codegen_1._) `undefined`);
	    if (opts.coerceTypes === "array") {
	        gen.if((0, codegen_1._) `${dataType} == 'object' && Array.isArray(${data}) && ${data}.length == 1`, () => gen
	            .assign(data, (0, codegen_1._) `${data}[0]`)
	            .assign(dataType, (0, codegen_1._) `typeof ${data}`)
	            .if(checkDataTypes(types, data, opts.strictNumbers), () => gen.assign(coerced, data)));
	    }
	    gen.if((0, codegen_1._) `${coerced} !== undefined`);
	    for (const t of coerceTo) {
	        if (COERCIBLE.has(t) || (t === "array" && opts.coerceTypes === "array")) {
	            coerceSpecificType(t);
	        }
	    }
	    gen.else();
	    reportTypeError(it);
	    gen.endIf();
	    gen.if((0, codegen_1._) `${coerced} !== undefined`, () => {
	        gen.assign(data, coerced);
	        assignParentData(it, coerced);
	    });
	    function coerceSpecificType(t) {
	        switch (t) {
	            case "string":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} == "number" || ${dataType} == "boolean"`)
	                    .assign(coerced, (0, codegen_1._) `"" + ${data}`)
	                    .elseIf((0, codegen_1._) `${data} === null`)
	                    .assign(coerced, (0, codegen_1._) `""`);
	                return;
	            case "number":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} == "boolean" || ${data} === null
              || (${dataType} == "string" && ${data} && ${data} == +${data})`)
	                    .assign(coerced, (0, codegen_1._) `+${data}`);
	                return;
	            case "integer":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} === "boolean" || ${data} === null
              || (${dataType} === "string" && ${data} && ${data} == +${data} && !(${data} % 1))`)
	                    .assign(coerced, (0, codegen_1._) `+${data}`);
	                return;
	            case "boolean":
	                gen
	                    .elseIf((0, codegen_1._) `${data} === "false" || ${data} === 0 || ${data} === null`)
	                    .assign(coerced, false)
	                    .elseIf((0, codegen_1._) `${data} === "true" || ${data} === 1`)
	                    .assign(coerced, true);
	                return;
	            case "null":
	                gen.elseIf((0, codegen_1._) `${data} === "" || ${data} === 0 || ${data} === false`);
	                gen.assign(coerced, null);
	                return;
	            case "array":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} === "string" || ${dataType} === "number"
              || ${dataType} === "boolean" || ${data} === null`)
	                    .assign(coerced, (0, codegen_1._) `[${data}]`);
	        }
	    }
	}
	function assignParentData({ gen, parentData, parentDataProperty }, expr) {
	    // TODO use gen.property
	    gen.if((0, codegen_1._) `${parentData} !== undefined`, () => gen.assign((0, codegen_1._) `${parentData}[${parentDataProperty}]`, expr));
	}
	function checkDataType(dataType, data, strictNums, correct = DataType.Correct) {
	    const EQ = correct === DataType.Correct ? codegen_1.operators.EQ : codegen_1.operators.NEQ;
	    let cond;
	    switch (dataType) {
	        case "null":
	            return (0, codegen_1._) `${data} ${EQ} null`;
	        case "array":
	            cond = (0, codegen_1._) `Array.isArray(${data})`;
	            break;
	        case "object":
	            cond = (0, codegen_1._) `${data} && typeof ${data} == "object" && !Array.isArray(${data})`;
	            break;
	        case "integer":
	            cond = numCond((0, codegen_1._) `!(${data} % 1) && !isNaN(${data})`);
	            break;
	        case "number":
	            cond = numCond();
	            break;
	        default:
	            return (0, codegen_1._) `typeof ${data} ${EQ} ${dataType}`;
	    }
	    return correct === DataType.Correct ? cond : (0, codegen_1.not)(cond);
	    function numCond(_cond = codegen_1.nil) {
	        return (0, codegen_1.and)((0, codegen_1._) `typeof ${data} == "number"`, _cond, strictNums ? (0, codegen_1._) `isFinite(${data})` : codegen_1.nil);
	    }
	}
	dataType.checkDataType = checkDataType;
	function checkDataTypes(dataTypes, data, strictNums, correct) {
	    if (dataTypes.length === 1) {
	        return checkDataType(dataTypes[0], data, strictNums, correct);
	    }
	    let cond;
	    const types = (0, util_1.toHash)(dataTypes);
	    if (types.array && types.object) {
	        const notObj = (0, codegen_1._) `typeof ${data} != "object"`;
	        cond = types.null ? notObj : (0, codegen_1._) `!${data} || ${notObj}`;
	        delete types.null;
	        delete types.array;
	        delete types.object;
	    }
	    else {
	        cond = codegen_1.nil;
	    }
	    if (types.number)
	        delete types.integer;
	    for (const t in types)
	        cond = (0, codegen_1.and)(cond, checkDataType(t, data, strictNums, correct));
	    return cond;
	}
	dataType.checkDataTypes = checkDataTypes;
	const typeError = {
	    message: ({ schema }) => `must be ${schema}`,
	    params: ({ schema, schemaValue }) => typeof schema == "string" ? (0, codegen_1._) `{type: ${schema}}` : (0, codegen_1._) `{type: ${schemaValue}}`,
	};
	function reportTypeError(it) {
	    const cxt = getTypeErrorContext(it);
	    (0, errors_1.reportError)(cxt, typeError);
	}
	dataType.reportTypeError = reportTypeError;
	function getTypeErrorContext(it) {
	    const { gen, data, schema } = it;
	    const schemaCode = (0, util_1.schemaRefOrVal)(it, schema, "type");
	    return {
	        gen,
	        keyword: "type",
	        data,
	        schema: schema.type,
	        schemaCode,
	        schemaValue: schemaCode,
	        parentSchema: schema,
	        params: {},
	        it,
	    };
	}
	
	return dataType;
}

var defaults = {};

var hasRequiredDefaults;

function requireDefaults () {
	if (hasRequiredDefaults) return defaults;
	hasRequiredDefaults = 1;
	Object.defineProperty(defaults, "__esModule", { value: true });
	defaults.assignDefaults = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	function assignDefaults(it, ty) {
	    const { properties, items } = it.schema;
	    if (ty === "object" && properties) {
	        for (const key in properties) {
	            assignDefault(it, key, properties[key].default);
	        }
	    }
	    else if (ty === "array" && Array.isArray(items)) {
	        items.forEach((sch, i) => assignDefault(it, i, sch.default));
	    }
	}
	defaults.assignDefaults = assignDefaults;
	function assignDefault(it, prop, defaultValue) {
	    const { gen, compositeRule, data, opts } = it;
	    if (defaultValue === undefined)
	        return;
	    const childData = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(prop)}`;
	    if (compositeRule) {
	        (0, util_1.checkStrictMode)(it, `default is ignored for: ${childData}`);
	        return;
	    }
	    let condition = (0, codegen_1._) `${childData} === undefined`;
	    if (opts.useDefaults === "empty") {
	        condition = (0, codegen_1._) `${condition} || ${childData} === null || ${childData} === ""`;
	    }
	    // `${childData} === undefined` +
	    // (opts.useDefaults === "empty" ? ` || ${childData} === null || ${childData} === ""` : "")
	    gen.if(condition, (0, codegen_1._) `${childData} = ${(0, codegen_1.stringify)(defaultValue)}`);
	}
	
	return defaults;
}

var keyword = {};

var code = {};

var hasRequiredCode;

function requireCode () {
	if (hasRequiredCode) return code;
	hasRequiredCode = 1;
	Object.defineProperty(code, "__esModule", { value: true });
	code.validateUnion = code.validateArray = code.usePattern = code.callValidateCode = code.schemaProperties = code.allSchemaProperties = code.noPropertyInData = code.propertyInData = code.isOwnProperty = code.hasPropFunc = code.reportMissingProp = code.checkMissingProp = code.checkReportMissingProp = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const names_1 = /*@__PURE__*/ requireNames();
	const util_2 = /*@__PURE__*/ requireUtil();
	function checkReportMissingProp(cxt, prop) {
	    const { gen, data, it } = cxt;
	    gen.if(noPropertyInData(gen, data, prop, it.opts.ownProperties), () => {
	        cxt.setParams({ missingProperty: (0, codegen_1._) `${prop}` }, true);
	        cxt.error();
	    });
	}
	code.checkReportMissingProp = checkReportMissingProp;
	function checkMissingProp({ gen, data, it: { opts } }, properties, missing) {
	    return (0, codegen_1.or)(...properties.map((prop) => (0, codegen_1.and)(noPropertyInData(gen, data, prop, opts.ownProperties), (0, codegen_1._) `${missing} = ${prop}`)));
	}
	code.checkMissingProp = checkMissingProp;
	function reportMissingProp(cxt, missing) {
	    cxt.setParams({ missingProperty: missing }, true);
	    cxt.error();
	}
	code.reportMissingProp = reportMissingProp;
	function hasPropFunc(gen) {
	    return gen.scopeValue("func", {
	        // eslint-disable-next-line @typescript-eslint/unbound-method
	        ref: Object.prototype.hasOwnProperty,
	        code: (0, codegen_1._) `Object.prototype.hasOwnProperty`,
	    });
	}
	code.hasPropFunc = hasPropFunc;
	function isOwnProperty(gen, data, property) {
	    return (0, codegen_1._) `${hasPropFunc(gen)}.call(${data}, ${property})`;
	}
	code.isOwnProperty = isOwnProperty;
	function propertyInData(gen, data, property, ownProperties) {
	    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} !== undefined`;
	    return ownProperties ? (0, codegen_1._) `${cond} && ${isOwnProperty(gen, data, property)}` : cond;
	}
	code.propertyInData = propertyInData;
	function noPropertyInData(gen, data, property, ownProperties) {
	    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} === undefined`;
	    return ownProperties ? (0, codegen_1.or)(cond, (0, codegen_1.not)(isOwnProperty(gen, data, property))) : cond;
	}
	code.noPropertyInData = noPropertyInData;
	function allSchemaProperties(schemaMap) {
	    return schemaMap ? Object.keys(schemaMap).filter((p) => p !== "__proto__") : [];
	}
	code.allSchemaProperties = allSchemaProperties;
	function schemaProperties(it, schemaMap) {
	    return allSchemaProperties(schemaMap).filter((p) => !(0, util_1.alwaysValidSchema)(it, schemaMap[p]));
	}
	code.schemaProperties = schemaProperties;
	function callValidateCode({ schemaCode, data, it: { gen, topSchemaRef, schemaPath, errorPath }, it }, func, context, passSchema) {
	    const dataAndSchema = passSchema ? (0, codegen_1._) `${schemaCode}, ${data}, ${topSchemaRef}${schemaPath}` : data;
	    const valCxt = [
	        [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, errorPath)],
	        [names_1.default.parentData, it.parentData],
	        [names_1.default.parentDataProperty, it.parentDataProperty],
	        [names_1.default.rootData, names_1.default.rootData],
	    ];
	    if (it.opts.dynamicRef)
	        valCxt.push([names_1.default.dynamicAnchors, names_1.default.dynamicAnchors]);
	    const args = (0, codegen_1._) `${dataAndSchema}, ${gen.object(...valCxt)}`;
	    return context !== codegen_1.nil ? (0, codegen_1._) `${func}.call(${context}, ${args})` : (0, codegen_1._) `${func}(${args})`;
	}
	code.callValidateCode = callValidateCode;
	const newRegExp = (0, codegen_1._) `new RegExp`;
	function usePattern({ gen, it: { opts } }, pattern) {
	    const u = opts.unicodeRegExp ? "u" : "";
	    const { regExp } = opts.code;
	    const rx = regExp(pattern, u);
	    return gen.scopeValue("pattern", {
	        key: rx.toString(),
	        ref: rx,
	        code: (0, codegen_1._) `${regExp.code === "new RegExp" ? newRegExp : (0, util_2.useFunc)(gen, regExp)}(${pattern}, ${u})`,
	    });
	}
	code.usePattern = usePattern;
	function validateArray(cxt) {
	    const { gen, data, keyword, it } = cxt;
	    const valid = gen.name("valid");
	    if (it.allErrors) {
	        const validArr = gen.let("valid", true);
	        validateItems(() => gen.assign(validArr, false));
	        return validArr;
	    }
	    gen.var(valid, true);
	    validateItems(() => gen.break());
	    return valid;
	    function validateItems(notValid) {
	        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	        gen.forRange("i", 0, len, (i) => {
	            cxt.subschema({
	                keyword,
	                dataProp: i,
	                dataPropType: util_1.Type.Num,
	            }, valid);
	            gen.if((0, codegen_1.not)(valid), notValid);
	        });
	    }
	}
	code.validateArray = validateArray;
	function validateUnion(cxt) {
	    const { gen, schema, keyword, it } = cxt;
	    /* istanbul ignore if */
	    if (!Array.isArray(schema))
	        throw new Error("ajv implementation error");
	    const alwaysValid = schema.some((sch) => (0, util_1.alwaysValidSchema)(it, sch));
	    if (alwaysValid && !it.opts.unevaluated)
	        return;
	    const valid = gen.let("valid", false);
	    const schValid = gen.name("_valid");
	    gen.block(() => schema.forEach((_sch, i) => {
	        const schCxt = cxt.subschema({
	            keyword,
	            schemaProp: i,
	            compositeRule: true,
	        }, schValid);
	        gen.assign(valid, (0, codegen_1._) `${valid} || ${schValid}`);
	        const merged = cxt.mergeValidEvaluated(schCxt, schValid);
	        // can short-circuit if `unevaluatedProperties/Items` not supported (opts.unevaluated !== true)
	        // or if all properties and items were evaluated (it.props === true && it.items === true)
	        if (!merged)
	            gen.if((0, codegen_1.not)(valid));
	    }));
	    cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
	}
	code.validateUnion = validateUnion;
	
	return code;
}

var hasRequiredKeyword;

function requireKeyword () {
	if (hasRequiredKeyword) return keyword;
	hasRequiredKeyword = 1;
	Object.defineProperty(keyword, "__esModule", { value: true });
	keyword.validateKeywordUsage = keyword.validSchemaType = keyword.funcKeywordCode = keyword.macroKeywordCode = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const code_1 = /*@__PURE__*/ requireCode();
	const errors_1 = /*@__PURE__*/ requireErrors();
	function macroKeywordCode(cxt, def) {
	    const { gen, keyword, schema, parentSchema, it } = cxt;
	    const macroSchema = def.macro.call(it.self, schema, parentSchema, it);
	    const schemaRef = useKeyword(gen, keyword, macroSchema);
	    if (it.opts.validateSchema !== false)
	        it.self.validateSchema(macroSchema, true);
	    const valid = gen.name("valid");
	    cxt.subschema({
	        schema: macroSchema,
	        schemaPath: codegen_1.nil,
	        errSchemaPath: `${it.errSchemaPath}/${keyword}`,
	        topSchemaRef: schemaRef,
	        compositeRule: true,
	    }, valid);
	    cxt.pass(valid, () => cxt.error(true));
	}
	keyword.macroKeywordCode = macroKeywordCode;
	function funcKeywordCode(cxt, def) {
	    var _a;
	    const { gen, keyword, schema, parentSchema, $data, it } = cxt;
	    checkAsyncKeyword(it, def);
	    const validate = !$data && def.compile ? def.compile.call(it.self, schema, parentSchema, it) : def.validate;
	    const validateRef = useKeyword(gen, keyword, validate);
	    const valid = gen.let("valid");
	    cxt.block$data(valid, validateKeyword);
	    cxt.ok((_a = def.valid) !== null && _a !== void 0 ? _a : valid);
	    function validateKeyword() {
	        if (def.errors === false) {
	            assignValid();
	            if (def.modifying)
	                modifyData(cxt);
	            reportErrs(() => cxt.error());
	        }
	        else {
	            const ruleErrs = def.async ? validateAsync() : validateSync();
	            if (def.modifying)
	                modifyData(cxt);
	            reportErrs(() => addErrs(cxt, ruleErrs));
	        }
	    }
	    function validateAsync() {
	        const ruleErrs = gen.let("ruleErrs", null);
	        gen.try(() => assignValid((0, codegen_1._) `await `), (e) => gen.assign(valid, false).if((0, codegen_1._) `${e} instanceof ${it.ValidationError}`, () => gen.assign(ruleErrs, (0, codegen_1._) `${e}.errors`), () => gen.throw(e)));
	        return ruleErrs;
	    }
	    function validateSync() {
	        const validateErrs = (0, codegen_1._) `${validateRef}.errors`;
	        gen.assign(validateErrs, null);
	        assignValid(codegen_1.nil);
	        return validateErrs;
	    }
	    function assignValid(_await = def.async ? (0, codegen_1._) `await ` : codegen_1.nil) {
	        const passCxt = it.opts.passContext ? names_1.default.this : names_1.default.self;
	        const passSchema = !(("compile" in def && !$data) || def.schema === false);
	        gen.assign(valid, (0, codegen_1._) `${_await}${(0, code_1.callValidateCode)(cxt, validateRef, passCxt, passSchema)}`, def.modifying);
	    }
	    function reportErrs(errors) {
	        var _a;
	        gen.if((0, codegen_1.not)((_a = def.valid) !== null && _a !== void 0 ? _a : valid), errors);
	    }
	}
	keyword.funcKeywordCode = funcKeywordCode;
	function modifyData(cxt) {
	    const { gen, data, it } = cxt;
	    gen.if(it.parentData, () => gen.assign(data, (0, codegen_1._) `${it.parentData}[${it.parentDataProperty}]`));
	}
	function addErrs(cxt, errs) {
	    const { gen } = cxt;
	    gen.if((0, codegen_1._) `Array.isArray(${errs})`, () => {
	        gen
	            .assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`)
	            .assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
	        (0, errors_1.extendErrors)(cxt);
	    }, () => cxt.error());
	}
	function checkAsyncKeyword({ schemaEnv }, def) {
	    if (def.async && !schemaEnv.$async)
	        throw new Error("async keyword in sync schema");
	}
	function useKeyword(gen, keyword, result) {
	    if (result === undefined)
	        throw new Error(`keyword "${keyword}" failed to compile`);
	    return gen.scopeValue("keyword", typeof result == "function" ? { ref: result } : { ref: result, code: (0, codegen_1.stringify)(result) });
	}
	function validSchemaType(schema, schemaType, allowUndefined = false) {
	    // TODO add tests
	    return (!schemaType.length ||
	        schemaType.some((st) => st === "array"
	            ? Array.isArray(schema)
	            : st === "object"
	                ? schema && typeof schema == "object" && !Array.isArray(schema)
	                : typeof schema == st || (allowUndefined && typeof schema == "undefined")));
	}
	keyword.validSchemaType = validSchemaType;
	function validateKeywordUsage({ schema, opts, self, errSchemaPath }, def, keyword) {
	    /* istanbul ignore if */
	    if (Array.isArray(def.keyword) ? !def.keyword.includes(keyword) : def.keyword !== keyword) {
	        throw new Error("ajv implementation error");
	    }
	    const deps = def.dependencies;
	    if (deps === null || deps === void 0 ? void 0 : deps.some((kwd) => !Object.prototype.hasOwnProperty.call(schema, kwd))) {
	        throw new Error(`parent schema must have dependencies of ${keyword}: ${deps.join(",")}`);
	    }
	    if (def.validateSchema) {
	        const valid = def.validateSchema(schema[keyword]);
	        if (!valid) {
	            const msg = `keyword "${keyword}" value is invalid at path "${errSchemaPath}": ` +
	                self.errorsText(def.validateSchema.errors);
	            if (opts.validateSchema === "log")
	                self.logger.error(msg);
	            else
	                throw new Error(msg);
	        }
	    }
	}
	keyword.validateKeywordUsage = validateKeywordUsage;
	
	return keyword;
}

var subschema = {};

var hasRequiredSubschema;

function requireSubschema () {
	if (hasRequiredSubschema) return subschema;
	hasRequiredSubschema = 1;
	Object.defineProperty(subschema, "__esModule", { value: true });
	subschema.extendSubschemaMode = subschema.extendSubschemaData = subschema.getSubschema = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	function getSubschema(it, { keyword, schemaProp, schema, schemaPath, errSchemaPath, topSchemaRef }) {
	    if (keyword !== undefined && schema !== undefined) {
	        throw new Error('both "keyword" and "schema" passed, only one allowed');
	    }
	    if (keyword !== undefined) {
	        const sch = it.schema[keyword];
	        return schemaProp === undefined
	            ? {
	                schema: sch,
	                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}`,
	                errSchemaPath: `${it.errSchemaPath}/${keyword}`,
	            }
	            : {
	                schema: sch[schemaProp],
	                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}${(0, codegen_1.getProperty)(schemaProp)}`,
	                errSchemaPath: `${it.errSchemaPath}/${keyword}/${(0, util_1.escapeFragment)(schemaProp)}`,
	            };
	    }
	    if (schema !== undefined) {
	        if (schemaPath === undefined || errSchemaPath === undefined || topSchemaRef === undefined) {
	            throw new Error('"schemaPath", "errSchemaPath" and "topSchemaRef" are required with "schema"');
	        }
	        return {
	            schema,
	            schemaPath,
	            topSchemaRef,
	            errSchemaPath,
	        };
	    }
	    throw new Error('either "keyword" or "schema" must be passed');
	}
	subschema.getSubschema = getSubschema;
	function extendSubschemaData(subschema, it, { dataProp, dataPropType: dpType, data, dataTypes, propertyName }) {
	    if (data !== undefined && dataProp !== undefined) {
	        throw new Error('both "data" and "dataProp" passed, only one allowed');
	    }
	    const { gen } = it;
	    if (dataProp !== undefined) {
	        const { errorPath, dataPathArr, opts } = it;
	        const nextData = gen.let("data", (0, codegen_1._) `${it.data}${(0, codegen_1.getProperty)(dataProp)}`, true);
	        dataContextProps(nextData);
	        subschema.errorPath = (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(dataProp, dpType, opts.jsPropertySyntax)}`;
	        subschema.parentDataProperty = (0, codegen_1._) `${dataProp}`;
	        subschema.dataPathArr = [...dataPathArr, subschema.parentDataProperty];
	    }
	    if (data !== undefined) {
	        const nextData = data instanceof codegen_1.Name ? data : gen.let("data", data, true); // replaceable if used once?
	        dataContextProps(nextData);
	        if (propertyName !== undefined)
	            subschema.propertyName = propertyName;
	        // TODO something is possibly wrong here with not changing parentDataProperty and not appending dataPathArr
	    }
	    if (dataTypes)
	        subschema.dataTypes = dataTypes;
	    function dataContextProps(_nextData) {
	        subschema.data = _nextData;
	        subschema.dataLevel = it.dataLevel + 1;
	        subschema.dataTypes = [];
	        it.definedProperties = new Set();
	        subschema.parentData = it.data;
	        subschema.dataNames = [...it.dataNames, _nextData];
	    }
	}
	subschema.extendSubschemaData = extendSubschemaData;
	function extendSubschemaMode(subschema, { jtdDiscriminator, jtdMetadata, compositeRule, createErrors, allErrors }) {
	    if (compositeRule !== undefined)
	        subschema.compositeRule = compositeRule;
	    if (createErrors !== undefined)
	        subschema.createErrors = createErrors;
	    if (allErrors !== undefined)
	        subschema.allErrors = allErrors;
	    subschema.jtdDiscriminator = jtdDiscriminator; // not inherited
	    subschema.jtdMetadata = jtdMetadata; // not inherited
	}
	subschema.extendSubschemaMode = extendSubschemaMode;
	
	return subschema;
}

var resolve = {};

var fastDeepEqual;
var hasRequiredFastDeepEqual;

function requireFastDeepEqual () {
	if (hasRequiredFastDeepEqual) return fastDeepEqual;
	hasRequiredFastDeepEqual = 1;

	// do not edit .js files directly - edit src/index.jst



	fastDeepEqual = function equal(a, b) {
	  if (a === b) return true;

	  if (a && b && typeof a == 'object' && typeof b == 'object') {
	    if (a.constructor !== b.constructor) return false;

	    var length, i, keys;
	    if (Array.isArray(a)) {
	      length = a.length;
	      if (length != b.length) return false;
	      for (i = length; i-- !== 0;)
	        if (!equal(a[i], b[i])) return false;
	      return true;
	    }



	    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
	    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
	    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();

	    keys = Object.keys(a);
	    length = keys.length;
	    if (length !== Object.keys(b).length) return false;

	    for (i = length; i-- !== 0;)
	      if (!Object.prototype.hasOwnProperty.call(b, keys[i])) return false;

	    for (i = length; i-- !== 0;) {
	      var key = keys[i];

	      if (!equal(a[key], b[key])) return false;
	    }

	    return true;
	  }

	  // true if both NaN, false otherwise
	  return a!==a && b!==b;
	};
	return fastDeepEqual;
}

var jsonSchemaTraverse = {exports: {}};

var hasRequiredJsonSchemaTraverse;

function requireJsonSchemaTraverse () {
	if (hasRequiredJsonSchemaTraverse) return jsonSchemaTraverse.exports;
	hasRequiredJsonSchemaTraverse = 1;

	var traverse = jsonSchemaTraverse.exports = function (schema, opts, cb) {
	  // Legacy support for v0.3.1 and earlier.
	  if (typeof opts == 'function') {
	    cb = opts;
	    opts = {};
	  }

	  cb = opts.cb || cb;
	  var pre = (typeof cb == 'function') ? cb : cb.pre || function() {};
	  var post = cb.post || function() {};

	  _traverse(opts, pre, post, schema, '', schema);
	};


	traverse.keywords = {
	  additionalItems: true,
	  items: true,
	  contains: true,
	  additionalProperties: true,
	  propertyNames: true,
	  not: true,
	  if: true,
	  then: true,
	  else: true
	};

	traverse.arrayKeywords = {
	  items: true,
	  allOf: true,
	  anyOf: true,
	  oneOf: true
	};

	traverse.propsKeywords = {
	  $defs: true,
	  definitions: true,
	  properties: true,
	  patternProperties: true,
	  dependencies: true
	};

	traverse.skipKeywords = {
	  default: true,
	  enum: true,
	  const: true,
	  required: true,
	  maximum: true,
	  minimum: true,
	  exclusiveMaximum: true,
	  exclusiveMinimum: true,
	  multipleOf: true,
	  maxLength: true,
	  minLength: true,
	  pattern: true,
	  format: true,
	  maxItems: true,
	  minItems: true,
	  uniqueItems: true,
	  maxProperties: true,
	  minProperties: true
	};


	function _traverse(opts, pre, post, schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex) {
	  if (schema && typeof schema == 'object' && !Array.isArray(schema)) {
	    pre(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
	    for (var key in schema) {
	      var sch = schema[key];
	      if (Array.isArray(sch)) {
	        if (key in traverse.arrayKeywords) {
	          for (var i=0; i<sch.length; i++)
	            _traverse(opts, pre, post, sch[i], jsonPtr + '/' + key + '/' + i, rootSchema, jsonPtr, key, schema, i);
	        }
	      } else if (key in traverse.propsKeywords) {
	        if (sch && typeof sch == 'object') {
	          for (var prop in sch)
	            _traverse(opts, pre, post, sch[prop], jsonPtr + '/' + key + '/' + escapeJsonPtr(prop), rootSchema, jsonPtr, key, schema, prop);
	        }
	      } else if (key in traverse.keywords || (opts.allKeys && !(key in traverse.skipKeywords))) {
	        _traverse(opts, pre, post, sch, jsonPtr + '/' + key, rootSchema, jsonPtr, key, schema);
	      }
	    }
	    post(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
	  }
	}


	function escapeJsonPtr(str) {
	  return str.replace(/~/g, '~0').replace(/\//g, '~1');
	}
	return jsonSchemaTraverse.exports;
}

var hasRequiredResolve;

function requireResolve () {
	if (hasRequiredResolve) return resolve;
	hasRequiredResolve = 1;
	Object.defineProperty(resolve, "__esModule", { value: true });
	resolve.getSchemaRefs = resolve.resolveUrl = resolve.normalizeId = resolve._getFullPath = resolve.getFullPath = resolve.inlineRef = void 0;
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal = requireFastDeepEqual();
	const traverse = requireJsonSchemaTraverse();
	// TODO refactor to use keyword definitions
	const SIMPLE_INLINED = new Set([
	    "type",
	    "format",
	    "pattern",
	    "maxLength",
	    "minLength",
	    "maxProperties",
	    "minProperties",
	    "maxItems",
	    "minItems",
	    "maximum",
	    "minimum",
	    "uniqueItems",
	    "multipleOf",
	    "required",
	    "enum",
	    "const",
	]);
	function inlineRef(schema, limit = true) {
	    if (typeof schema == "boolean")
	        return true;
	    if (limit === true)
	        return !hasRef(schema);
	    if (!limit)
	        return false;
	    return countKeys(schema) <= limit;
	}
	resolve.inlineRef = inlineRef;
	const REF_KEYWORDS = new Set([
	    "$ref",
	    "$recursiveRef",
	    "$recursiveAnchor",
	    "$dynamicRef",
	    "$dynamicAnchor",
	]);
	function hasRef(schema) {
	    for (const key in schema) {
	        if (REF_KEYWORDS.has(key))
	            return true;
	        const sch = schema[key];
	        if (Array.isArray(sch) && sch.some(hasRef))
	            return true;
	        if (typeof sch == "object" && hasRef(sch))
	            return true;
	    }
	    return false;
	}
	function countKeys(schema) {
	    let count = 0;
	    for (const key in schema) {
	        if (key === "$ref")
	            return Infinity;
	        count++;
	        if (SIMPLE_INLINED.has(key))
	            continue;
	        if (typeof schema[key] == "object") {
	            (0, util_1.eachItem)(schema[key], (sch) => (count += countKeys(sch)));
	        }
	        if (count === Infinity)
	            return Infinity;
	    }
	    return count;
	}
	function getFullPath(resolver, id = "", normalize) {
	    if (normalize !== false)
	        id = normalizeId(id);
	    const p = resolver.parse(id);
	    return _getFullPath(resolver, p);
	}
	resolve.getFullPath = getFullPath;
	function _getFullPath(resolver, p) {
	    const serialized = resolver.serialize(p);
	    return serialized.split("#")[0] + "#";
	}
	resolve._getFullPath = _getFullPath;
	const TRAILING_SLASH_HASH = /#\/?$/;
	function normalizeId(id) {
	    return id ? id.replace(TRAILING_SLASH_HASH, "") : "";
	}
	resolve.normalizeId = normalizeId;
	function resolveUrl(resolver, baseId, id) {
	    id = normalizeId(id);
	    return resolver.resolve(baseId, id);
	}
	resolve.resolveUrl = resolveUrl;
	const ANCHOR = /^[a-z_][-a-z0-9._]*$/i;
	function getSchemaRefs(schema, baseId) {
	    if (typeof schema == "boolean")
	        return {};
	    const { schemaId, uriResolver } = this.opts;
	    const schId = normalizeId(schema[schemaId] || baseId);
	    const baseIds = { "": schId };
	    const pathPrefix = getFullPath(uriResolver, schId, false);
	    const localRefs = {};
	    const schemaRefs = new Set();
	    traverse(schema, { allKeys: true }, (sch, jsonPtr, _, parentJsonPtr) => {
	        if (parentJsonPtr === undefined)
	            return;
	        const fullPath = pathPrefix + jsonPtr;
	        let innerBaseId = baseIds[parentJsonPtr];
	        if (typeof sch[schemaId] == "string")
	            innerBaseId = addRef.call(this, sch[schemaId]);
	        addAnchor.call(this, sch.$anchor);
	        addAnchor.call(this, sch.$dynamicAnchor);
	        baseIds[jsonPtr] = innerBaseId;
	        function addRef(ref) {
	            // eslint-disable-next-line @typescript-eslint/unbound-method
	            const _resolve = this.opts.uriResolver.resolve;
	            ref = normalizeId(innerBaseId ? _resolve(innerBaseId, ref) : ref);
	            if (schemaRefs.has(ref))
	                throw ambiguos(ref);
	            schemaRefs.add(ref);
	            let schOrRef = this.refs[ref];
	            if (typeof schOrRef == "string")
	                schOrRef = this.refs[schOrRef];
	            if (typeof schOrRef == "object") {
	                checkAmbiguosRef(sch, schOrRef.schema, ref);
	            }
	            else if (ref !== normalizeId(fullPath)) {
	                if (ref[0] === "#") {
	                    checkAmbiguosRef(sch, localRefs[ref], ref);
	                    localRefs[ref] = sch;
	                }
	                else {
	                    this.refs[ref] = fullPath;
	                }
	            }
	            return ref;
	        }
	        function addAnchor(anchor) {
	            if (typeof anchor == "string") {
	                if (!ANCHOR.test(anchor))
	                    throw new Error(`invalid anchor "${anchor}"`);
	                addRef.call(this, `#${anchor}`);
	            }
	        }
	    });
	    return localRefs;
	    function checkAmbiguosRef(sch1, sch2, ref) {
	        if (sch2 !== undefined && !equal(sch1, sch2))
	            throw ambiguos(ref);
	    }
	    function ambiguos(ref) {
	        return new Error(`reference "${ref}" resolves to more than one schema`);
	    }
	}
	resolve.getSchemaRefs = getSchemaRefs;
	
	return resolve;
}

var hasRequiredValidate;

function requireValidate () {
	if (hasRequiredValidate) return validate;
	hasRequiredValidate = 1;
	Object.defineProperty(validate, "__esModule", { value: true });
	validate.getData = validate.KeywordCxt = validate.validateFunctionCode = void 0;
	const boolSchema_1 = /*@__PURE__*/ requireBoolSchema();
	const dataType_1 = /*@__PURE__*/ requireDataType();
	const applicability_1 = /*@__PURE__*/ requireApplicability();
	const dataType_2 = /*@__PURE__*/ requireDataType();
	const defaults_1 = /*@__PURE__*/ requireDefaults();
	const keyword_1 = /*@__PURE__*/ requireKeyword();
	const subschema_1 = /*@__PURE__*/ requireSubschema();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const resolve_1 = /*@__PURE__*/ requireResolve();
	const util_1 = /*@__PURE__*/ requireUtil();
	const errors_1 = /*@__PURE__*/ requireErrors();
	// schema compilation - generates validation function, subschemaCode (below) is used for subschemas
	function validateFunctionCode(it) {
	    if (isSchemaObj(it)) {
	        checkKeywords(it);
	        if (schemaCxtHasRules(it)) {
	            topSchemaObjCode(it);
	            return;
	        }
	    }
	    validateFunction(it, () => (0, boolSchema_1.topBoolOrEmptySchema)(it));
	}
	validate.validateFunctionCode = validateFunctionCode;
	function validateFunction({ gen, validateName, schema, schemaEnv, opts }, body) {
	    if (opts.code.es5) {
	        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${names_1.default.valCxt}`, schemaEnv.$async, () => {
	            gen.code((0, codegen_1._) `"use strict"; ${funcSourceUrl(schema, opts)}`);
	            destructureValCxtES5(gen, opts);
	            gen.code(body);
	        });
	    }
	    else {
	        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${destructureValCxt(opts)}`, schemaEnv.$async, () => gen.code(funcSourceUrl(schema, opts)).code(body));
	    }
	}
	function destructureValCxt(opts) {
	    return (0, codegen_1._) `{${names_1.default.instancePath}="", ${names_1.default.parentData}, ${names_1.default.parentDataProperty}, ${names_1.default.rootData}=${names_1.default.data}${opts.dynamicRef ? (0, codegen_1._) `, ${names_1.default.dynamicAnchors}={}` : codegen_1.nil}}={}`;
	}
	function destructureValCxtES5(gen, opts) {
	    gen.if(names_1.default.valCxt, () => {
	        gen.var(names_1.default.instancePath, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.instancePath}`);
	        gen.var(names_1.default.parentData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentData}`);
	        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentDataProperty}`);
	        gen.var(names_1.default.rootData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.rootData}`);
	        if (opts.dynamicRef)
	            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.dynamicAnchors}`);
	    }, () => {
	        gen.var(names_1.default.instancePath, (0, codegen_1._) `""`);
	        gen.var(names_1.default.parentData, (0, codegen_1._) `undefined`);
	        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `undefined`);
	        gen.var(names_1.default.rootData, names_1.default.data);
	        if (opts.dynamicRef)
	            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `{}`);
	    });
	}
	function topSchemaObjCode(it) {
	    const { schema, opts, gen } = it;
	    validateFunction(it, () => {
	        if (opts.$comment && schema.$comment)
	            commentKeyword(it);
	        checkNoDefault(it);
	        gen.let(names_1.default.vErrors, null);
	        gen.let(names_1.default.errors, 0);
	        if (opts.unevaluated)
	            resetEvaluated(it);
	        typeAndKeywords(it);
	        returnResults(it);
	    });
	    return;
	}
	function resetEvaluated(it) {
	    // TODO maybe some hook to execute it in the end to check whether props/items are Name, as in assignEvaluated
	    const { gen, validateName } = it;
	    it.evaluated = gen.const("evaluated", (0, codegen_1._) `${validateName}.evaluated`);
	    gen.if((0, codegen_1._) `${it.evaluated}.dynamicProps`, () => gen.assign((0, codegen_1._) `${it.evaluated}.props`, (0, codegen_1._) `undefined`));
	    gen.if((0, codegen_1._) `${it.evaluated}.dynamicItems`, () => gen.assign((0, codegen_1._) `${it.evaluated}.items`, (0, codegen_1._) `undefined`));
	}
	function funcSourceUrl(schema, opts) {
	    const schId = typeof schema == "object" && schema[opts.schemaId];
	    return schId && (opts.code.source || opts.code.process) ? (0, codegen_1._) `/*# sourceURL=${schId} */` : codegen_1.nil;
	}
	// schema compilation - this function is used recursively to generate code for sub-schemas
	function subschemaCode(it, valid) {
	    if (isSchemaObj(it)) {
	        checkKeywords(it);
	        if (schemaCxtHasRules(it)) {
	            subSchemaObjCode(it, valid);
	            return;
	        }
	    }
	    (0, boolSchema_1.boolOrEmptySchema)(it, valid);
	}
	function schemaCxtHasRules({ schema, self }) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (self.RULES.all[key])
	            return true;
	    return false;
	}
	function isSchemaObj(it) {
	    return typeof it.schema != "boolean";
	}
	function subSchemaObjCode(it, valid) {
	    const { schema, gen, opts } = it;
	    if (opts.$comment && schema.$comment)
	        commentKeyword(it);
	    updateContext(it);
	    checkAsyncSchema(it);
	    const errsCount = gen.const("_errs", names_1.default.errors);
	    typeAndKeywords(it, errsCount);
	    // TODO var
	    gen.var(valid, (0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
	}
	function checkKeywords(it) {
	    (0, util_1.checkUnknownRules)(it);
	    checkRefsAndKeywords(it);
	}
	function typeAndKeywords(it, errsCount) {
	    if (it.opts.jtd)
	        return schemaKeywords(it, [], false, errsCount);
	    const types = (0, dataType_1.getSchemaTypes)(it.schema);
	    const checkedTypes = (0, dataType_1.coerceAndCheckDataType)(it, types);
	    schemaKeywords(it, types, !checkedTypes, errsCount);
	}
	function checkRefsAndKeywords(it) {
	    const { schema, errSchemaPath, opts, self } = it;
	    if (schema.$ref && opts.ignoreKeywordsWithRef && (0, util_1.schemaHasRulesButRef)(schema, self.RULES)) {
	        self.logger.warn(`$ref: keywords ignored in schema at path "${errSchemaPath}"`);
	    }
	}
	function checkNoDefault(it) {
	    const { schema, opts } = it;
	    if (schema.default !== undefined && opts.useDefaults && opts.strictSchema) {
	        (0, util_1.checkStrictMode)(it, "default is ignored in the schema root");
	    }
	}
	function updateContext(it) {
	    const schId = it.schema[it.opts.schemaId];
	    if (schId)
	        it.baseId = (0, resolve_1.resolveUrl)(it.opts.uriResolver, it.baseId, schId);
	}
	function checkAsyncSchema(it) {
	    if (it.schema.$async && !it.schemaEnv.$async)
	        throw new Error("async schema in sync schema");
	}
	function commentKeyword({ gen, schemaEnv, schema, errSchemaPath, opts }) {
	    const msg = schema.$comment;
	    if (opts.$comment === true) {
	        gen.code((0, codegen_1._) `${names_1.default.self}.logger.log(${msg})`);
	    }
	    else if (typeof opts.$comment == "function") {
	        const schemaPath = (0, codegen_1.str) `${errSchemaPath}/$comment`;
	        const rootName = gen.scopeValue("root", { ref: schemaEnv.root });
	        gen.code((0, codegen_1._) `${names_1.default.self}.opts.$comment(${msg}, ${schemaPath}, ${rootName}.schema)`);
	    }
	}
	function returnResults(it) {
	    const { gen, schemaEnv, validateName, ValidationError, opts } = it;
	    if (schemaEnv.$async) {
	        // TODO assign unevaluated
	        gen.if((0, codegen_1._) `${names_1.default.errors} === 0`, () => gen.return(names_1.default.data), () => gen.throw((0, codegen_1._) `new ${ValidationError}(${names_1.default.vErrors})`));
	    }
	    else {
	        gen.assign((0, codegen_1._) `${validateName}.errors`, names_1.default.vErrors);
	        if (opts.unevaluated)
	            assignEvaluated(it);
	        gen.return((0, codegen_1._) `${names_1.default.errors} === 0`);
	    }
	}
	function assignEvaluated({ gen, evaluated, props, items }) {
	    if (props instanceof codegen_1.Name)
	        gen.assign((0, codegen_1._) `${evaluated}.props`, props);
	    if (items instanceof codegen_1.Name)
	        gen.assign((0, codegen_1._) `${evaluated}.items`, items);
	}
	function schemaKeywords(it, types, typeErrors, errsCount) {
	    const { gen, schema, data, allErrors, opts, self } = it;
	    const { RULES } = self;
	    if (schema.$ref && (opts.ignoreKeywordsWithRef || !(0, util_1.schemaHasRulesButRef)(schema, RULES))) {
	        gen.block(() => keywordCode(it, "$ref", RULES.all.$ref.definition)); // TODO typecast
	        return;
	    }
	    if (!opts.jtd)
	        checkStrictTypes(it, types);
	    gen.block(() => {
	        for (const group of RULES.rules)
	            groupKeywords(group);
	        groupKeywords(RULES.post);
	    });
	    function groupKeywords(group) {
	        if (!(0, applicability_1.shouldUseGroup)(schema, group))
	            return;
	        if (group.type) {
	            gen.if((0, dataType_2.checkDataType)(group.type, data, opts.strictNumbers));
	            iterateKeywords(it, group);
	            if (types.length === 1 && types[0] === group.type && typeErrors) {
	                gen.else();
	                (0, dataType_2.reportTypeError)(it);
	            }
	            gen.endIf();
	        }
	        else {
	            iterateKeywords(it, group);
	        }
	        // TODO make it "ok" call?
	        if (!allErrors)
	            gen.if((0, codegen_1._) `${names_1.default.errors} === ${errsCount || 0}`);
	    }
	}
	function iterateKeywords(it, group) {
	    const { gen, schema, opts: { useDefaults }, } = it;
	    if (useDefaults)
	        (0, defaults_1.assignDefaults)(it, group.type);
	    gen.block(() => {
	        for (const rule of group.rules) {
	            if ((0, applicability_1.shouldUseRule)(schema, rule)) {
	                keywordCode(it, rule.keyword, rule.definition, group.type);
	            }
	        }
	    });
	}
	function checkStrictTypes(it, types) {
	    if (it.schemaEnv.meta || !it.opts.strictTypes)
	        return;
	    checkContextTypes(it, types);
	    if (!it.opts.allowUnionTypes)
	        checkMultipleTypes(it, types);
	    checkKeywordTypes(it, it.dataTypes);
	}
	function checkContextTypes(it, types) {
	    if (!types.length)
	        return;
	    if (!it.dataTypes.length) {
	        it.dataTypes = types;
	        return;
	    }
	    types.forEach((t) => {
	        if (!includesType(it.dataTypes, t)) {
	            strictTypesError(it, `type "${t}" not allowed by context "${it.dataTypes.join(",")}"`);
	        }
	    });
	    narrowSchemaTypes(it, types);
	}
	function checkMultipleTypes(it, ts) {
	    if (ts.length > 1 && !(ts.length === 2 && ts.includes("null"))) {
	        strictTypesError(it, "use allowUnionTypes to allow union type keyword");
	    }
	}
	function checkKeywordTypes(it, ts) {
	    const rules = it.self.RULES.all;
	    for (const keyword in rules) {
	        const rule = rules[keyword];
	        if (typeof rule == "object" && (0, applicability_1.shouldUseRule)(it.schema, rule)) {
	            const { type } = rule.definition;
	            if (type.length && !type.some((t) => hasApplicableType(ts, t))) {
	                strictTypesError(it, `missing type "${type.join(",")}" for keyword "${keyword}"`);
	            }
	        }
	    }
	}
	function hasApplicableType(schTs, kwdT) {
	    return schTs.includes(kwdT) || (kwdT === "number" && schTs.includes("integer"));
	}
	function includesType(ts, t) {
	    return ts.includes(t) || (t === "integer" && ts.includes("number"));
	}
	function narrowSchemaTypes(it, withTypes) {
	    const ts = [];
	    for (const t of it.dataTypes) {
	        if (includesType(withTypes, t))
	            ts.push(t);
	        else if (withTypes.includes("integer") && t === "number")
	            ts.push("integer");
	    }
	    it.dataTypes = ts;
	}
	function strictTypesError(it, msg) {
	    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
	    msg += ` at "${schemaPath}" (strictTypes)`;
	    (0, util_1.checkStrictMode)(it, msg, it.opts.strictTypes);
	}
	class KeywordCxt {
	    constructor(it, def, keyword) {
	        (0, keyword_1.validateKeywordUsage)(it, def, keyword);
	        this.gen = it.gen;
	        this.allErrors = it.allErrors;
	        this.keyword = keyword;
	        this.data = it.data;
	        this.schema = it.schema[keyword];
	        this.$data = def.$data && it.opts.$data && this.schema && this.schema.$data;
	        this.schemaValue = (0, util_1.schemaRefOrVal)(it, this.schema, keyword, this.$data);
	        this.schemaType = def.schemaType;
	        this.parentSchema = it.schema;
	        this.params = {};
	        this.it = it;
	        this.def = def;
	        if (this.$data) {
	            this.schemaCode = it.gen.const("vSchema", getData(this.$data, it));
	        }
	        else {
	            this.schemaCode = this.schemaValue;
	            if (!(0, keyword_1.validSchemaType)(this.schema, def.schemaType, def.allowUndefined)) {
	                throw new Error(`${keyword} value must be ${JSON.stringify(def.schemaType)}`);
	            }
	        }
	        if ("code" in def ? def.trackErrors : def.errors !== false) {
	            this.errsCount = it.gen.const("_errs", names_1.default.errors);
	        }
	    }
	    result(condition, successAction, failAction) {
	        this.failResult((0, codegen_1.not)(condition), successAction, failAction);
	    }
	    failResult(condition, successAction, failAction) {
	        this.gen.if(condition);
	        if (failAction)
	            failAction();
	        else
	            this.error();
	        if (successAction) {
	            this.gen.else();
	            successAction();
	            if (this.allErrors)
	                this.gen.endIf();
	        }
	        else {
	            if (this.allErrors)
	                this.gen.endIf();
	            else
	                this.gen.else();
	        }
	    }
	    pass(condition, failAction) {
	        this.failResult((0, codegen_1.not)(condition), undefined, failAction);
	    }
	    fail(condition) {
	        if (condition === undefined) {
	            this.error();
	            if (!this.allErrors)
	                this.gen.if(false); // this branch will be removed by gen.optimize
	            return;
	        }
	        this.gen.if(condition);
	        this.error();
	        if (this.allErrors)
	            this.gen.endIf();
	        else
	            this.gen.else();
	    }
	    fail$data(condition) {
	        if (!this.$data)
	            return this.fail(condition);
	        const { schemaCode } = this;
	        this.fail((0, codegen_1._) `${schemaCode} !== undefined && (${(0, codegen_1.or)(this.invalid$data(), condition)})`);
	    }
	    error(append, errorParams, errorPaths) {
	        if (errorParams) {
	            this.setParams(errorParams);
	            this._error(append, errorPaths);
	            this.setParams({});
	            return;
	        }
	        this._error(append, errorPaths);
	    }
	    _error(append, errorPaths) {
	        (append ? errors_1.reportExtraError : errors_1.reportError)(this, this.def.error, errorPaths);
	    }
	    $dataError() {
	        (0, errors_1.reportError)(this, this.def.$dataError || errors_1.keyword$DataError);
	    }
	    reset() {
	        if (this.errsCount === undefined)
	            throw new Error('add "trackErrors" to keyword definition');
	        (0, errors_1.resetErrorsCount)(this.gen, this.errsCount);
	    }
	    ok(cond) {
	        if (!this.allErrors)
	            this.gen.if(cond);
	    }
	    setParams(obj, assign) {
	        if (assign)
	            Object.assign(this.params, obj);
	        else
	            this.params = obj;
	    }
	    block$data(valid, codeBlock, $dataValid = codegen_1.nil) {
	        this.gen.block(() => {
	            this.check$data(valid, $dataValid);
	            codeBlock();
	        });
	    }
	    check$data(valid = codegen_1.nil, $dataValid = codegen_1.nil) {
	        if (!this.$data)
	            return;
	        const { gen, schemaCode, schemaType, def } = this;
	        gen.if((0, codegen_1.or)((0, codegen_1._) `${schemaCode} === undefined`, $dataValid));
	        if (valid !== codegen_1.nil)
	            gen.assign(valid, true);
	        if (schemaType.length || def.validateSchema) {
	            gen.elseIf(this.invalid$data());
	            this.$dataError();
	            if (valid !== codegen_1.nil)
	                gen.assign(valid, false);
	        }
	        gen.else();
	    }
	    invalid$data() {
	        const { gen, schemaCode, schemaType, def, it } = this;
	        return (0, codegen_1.or)(wrong$DataType(), invalid$DataSchema());
	        function wrong$DataType() {
	            if (schemaType.length) {
	                /* istanbul ignore if */
	                if (!(schemaCode instanceof codegen_1.Name))
	                    throw new Error("ajv implementation error");
	                const st = Array.isArray(schemaType) ? schemaType : [schemaType];
	                return (0, codegen_1._) `${(0, dataType_2.checkDataTypes)(st, schemaCode, it.opts.strictNumbers, dataType_2.DataType.Wrong)}`;
	            }
	            return codegen_1.nil;
	        }
	        function invalid$DataSchema() {
	            if (def.validateSchema) {
	                const validateSchemaRef = gen.scopeValue("validate$data", { ref: def.validateSchema }); // TODO value.code for standalone
	                return (0, codegen_1._) `!${validateSchemaRef}(${schemaCode})`;
	            }
	            return codegen_1.nil;
	        }
	    }
	    subschema(appl, valid) {
	        const subschema = (0, subschema_1.getSubschema)(this.it, appl);
	        (0, subschema_1.extendSubschemaData)(subschema, this.it, appl);
	        (0, subschema_1.extendSubschemaMode)(subschema, appl);
	        const nextContext = { ...this.it, ...subschema, items: undefined, props: undefined };
	        subschemaCode(nextContext, valid);
	        return nextContext;
	    }
	    mergeEvaluated(schemaCxt, toName) {
	        const { it, gen } = this;
	        if (!it.opts.unevaluated)
	            return;
	        if (it.props !== true && schemaCxt.props !== undefined) {
	            it.props = util_1.mergeEvaluated.props(gen, schemaCxt.props, it.props, toName);
	        }
	        if (it.items !== true && schemaCxt.items !== undefined) {
	            it.items = util_1.mergeEvaluated.items(gen, schemaCxt.items, it.items, toName);
	        }
	    }
	    mergeValidEvaluated(schemaCxt, valid) {
	        const { it, gen } = this;
	        if (it.opts.unevaluated && (it.props !== true || it.items !== true)) {
	            gen.if(valid, () => this.mergeEvaluated(schemaCxt, codegen_1.Name));
	            return true;
	        }
	    }
	}
	validate.KeywordCxt = KeywordCxt;
	function keywordCode(it, keyword, def, ruleType) {
	    const cxt = new KeywordCxt(it, def, keyword);
	    if ("code" in def) {
	        def.code(cxt, ruleType);
	    }
	    else if (cxt.$data && def.validate) {
	        (0, keyword_1.funcKeywordCode)(cxt, def);
	    }
	    else if ("macro" in def) {
	        (0, keyword_1.macroKeywordCode)(cxt, def);
	    }
	    else if (def.compile || def.validate) {
	        (0, keyword_1.funcKeywordCode)(cxt, def);
	    }
	}
	const JSON_POINTER = /^\/(?:[^~]|~0|~1)*$/;
	const RELATIVE_JSON_POINTER = /^([0-9]+)(#|\/(?:[^~]|~0|~1)*)?$/;
	function getData($data, { dataLevel, dataNames, dataPathArr }) {
	    let jsonPointer;
	    let data;
	    if ($data === "")
	        return names_1.default.rootData;
	    if ($data[0] === "/") {
	        if (!JSON_POINTER.test($data))
	            throw new Error(`Invalid JSON-pointer: ${$data}`);
	        jsonPointer = $data;
	        data = names_1.default.rootData;
	    }
	    else {
	        const matches = RELATIVE_JSON_POINTER.exec($data);
	        if (!matches)
	            throw new Error(`Invalid JSON-pointer: ${$data}`);
	        const up = +matches[1];
	        jsonPointer = matches[2];
	        if (jsonPointer === "#") {
	            if (up >= dataLevel)
	                throw new Error(errorMsg("property/index", up));
	            return dataPathArr[dataLevel - up];
	        }
	        if (up > dataLevel)
	            throw new Error(errorMsg("data", up));
	        data = dataNames[dataLevel - up];
	        if (!jsonPointer)
	            return data;
	    }
	    let expr = data;
	    const segments = jsonPointer.split("/");
	    for (const segment of segments) {
	        if (segment) {
	            data = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)((0, util_1.unescapeJsonPointer)(segment))}`;
	            expr = (0, codegen_1._) `${expr} && ${data}`;
	        }
	    }
	    return expr;
	    function errorMsg(pointerType, up) {
	        return `Cannot access ${pointerType} ${up} levels up, current level is ${dataLevel}`;
	    }
	}
	validate.getData = getData;
	
	return validate;
}

var validation_error = {};

var hasRequiredValidation_error;

function requireValidation_error () {
	if (hasRequiredValidation_error) return validation_error;
	hasRequiredValidation_error = 1;
	Object.defineProperty(validation_error, "__esModule", { value: true });
	class ValidationError extends Error {
	    constructor(errors) {
	        super("validation failed");
	        this.errors = errors;
	        this.ajv = this.validation = true;
	    }
	}
	validation_error.default = ValidationError;
	
	return validation_error;
}

var ref_error = {};

var hasRequiredRef_error;

function requireRef_error () {
	if (hasRequiredRef_error) return ref_error;
	hasRequiredRef_error = 1;
	Object.defineProperty(ref_error, "__esModule", { value: true });
	const resolve_1 = /*@__PURE__*/ requireResolve();
	class MissingRefError extends Error {
	    constructor(resolver, baseId, ref, msg) {
	        super(msg || `can't resolve reference ${ref} from id ${baseId}`);
	        this.missingRef = (0, resolve_1.resolveUrl)(resolver, baseId, ref);
	        this.missingSchema = (0, resolve_1.normalizeId)((0, resolve_1.getFullPath)(resolver, this.missingRef));
	    }
	}
	ref_error.default = MissingRefError;
	
	return ref_error;
}

var compile = {};

var hasRequiredCompile;

function requireCompile () {
	if (hasRequiredCompile) return compile;
	hasRequiredCompile = 1;
	Object.defineProperty(compile, "__esModule", { value: true });
	compile.resolveSchema = compile.getCompilingSchema = compile.resolveRef = compile.compileSchema = compile.SchemaEnv = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const validation_error_1 = /*@__PURE__*/ requireValidation_error();
	const names_1 = /*@__PURE__*/ requireNames();
	const resolve_1 = /*@__PURE__*/ requireResolve();
	const util_1 = /*@__PURE__*/ requireUtil();
	const validate_1 = /*@__PURE__*/ requireValidate();
	class SchemaEnv {
	    constructor(env) {
	        var _a;
	        this.refs = {};
	        this.dynamicAnchors = {};
	        let schema;
	        if (typeof env.schema == "object")
	            schema = env.schema;
	        this.schema = env.schema;
	        this.schemaId = env.schemaId;
	        this.root = env.root || this;
	        this.baseId = (_a = env.baseId) !== null && _a !== void 0 ? _a : (0, resolve_1.normalizeId)(schema === null || schema === void 0 ? void 0 : schema[env.schemaId || "$id"]);
	        this.schemaPath = env.schemaPath;
	        this.localRefs = env.localRefs;
	        this.meta = env.meta;
	        this.$async = schema === null || schema === void 0 ? void 0 : schema.$async;
	        this.refs = {};
	    }
	}
	compile.SchemaEnv = SchemaEnv;
	// let codeSize = 0
	// let nodeCount = 0
	// Compiles schema in SchemaEnv
	function compileSchema(sch) {
	    // TODO refactor - remove compilations
	    const _sch = getCompilingSchema.call(this, sch);
	    if (_sch)
	        return _sch;
	    const rootId = (0, resolve_1.getFullPath)(this.opts.uriResolver, sch.root.baseId); // TODO if getFullPath removed 1 tests fails
	    const { es5, lines } = this.opts.code;
	    const { ownProperties } = this.opts;
	    const gen = new codegen_1.CodeGen(this.scope, { es5, lines, ownProperties });
	    let _ValidationError;
	    if (sch.$async) {
	        _ValidationError = gen.scopeValue("Error", {
	            ref: validation_error_1.default,
	            code: (0, codegen_1._) `require("ajv/dist/runtime/validation_error").default`,
	        });
	    }
	    const validateName = gen.scopeName("validate");
	    sch.validateName = validateName;
	    const schemaCxt = {
	        gen,
	        allErrors: this.opts.allErrors,
	        data: names_1.default.data,
	        parentData: names_1.default.parentData,
	        parentDataProperty: names_1.default.parentDataProperty,
	        dataNames: [names_1.default.data],
	        dataPathArr: [codegen_1.nil], // TODO can its length be used as dataLevel if nil is removed?
	        dataLevel: 0,
	        dataTypes: [],
	        definedProperties: new Set(),
	        topSchemaRef: gen.scopeValue("schema", this.opts.code.source === true
	            ? { ref: sch.schema, code: (0, codegen_1.stringify)(sch.schema) }
	            : { ref: sch.schema }),
	        validateName,
	        ValidationError: _ValidationError,
	        schema: sch.schema,
	        schemaEnv: sch,
	        rootId,
	        baseId: sch.baseId || rootId,
	        schemaPath: codegen_1.nil,
	        errSchemaPath: sch.schemaPath || (this.opts.jtd ? "" : "#"),
	        errorPath: (0, codegen_1._) `""`,
	        opts: this.opts,
	        self: this,
	    };
	    let sourceCode;
	    try {
	        this._compilations.add(sch);
	        (0, validate_1.validateFunctionCode)(schemaCxt);
	        gen.optimize(this.opts.code.optimize);
	        // gen.optimize(1)
	        const validateCode = gen.toString();
	        sourceCode = `${gen.scopeRefs(names_1.default.scope)}return ${validateCode}`;
	        // console.log((codeSize += sourceCode.length), (nodeCount += gen.nodeCount))
	        if (this.opts.code.process)
	            sourceCode = this.opts.code.process(sourceCode, sch);
	        // console.log("\n\n\n *** \n", sourceCode)
	        const makeValidate = new Function(`${names_1.default.self}`, `${names_1.default.scope}`, sourceCode);
	        const validate = makeValidate(this, this.scope.get());
	        this.scope.value(validateName, { ref: validate });
	        validate.errors = null;
	        validate.schema = sch.schema;
	        validate.schemaEnv = sch;
	        if (sch.$async)
	            validate.$async = true;
	        if (this.opts.code.source === true) {
	            validate.source = { validateName, validateCode, scopeValues: gen._values };
	        }
	        if (this.opts.unevaluated) {
	            const { props, items } = schemaCxt;
	            validate.evaluated = {
	                props: props instanceof codegen_1.Name ? undefined : props,
	                items: items instanceof codegen_1.Name ? undefined : items,
	                dynamicProps: props instanceof codegen_1.Name,
	                dynamicItems: items instanceof codegen_1.Name,
	            };
	            if (validate.source)
	                validate.source.evaluated = (0, codegen_1.stringify)(validate.evaluated);
	        }
	        sch.validate = validate;
	        return sch;
	    }
	    catch (e) {
	        delete sch.validate;
	        delete sch.validateName;
	        if (sourceCode)
	            this.logger.error("Error compiling schema, function code:", sourceCode);
	        // console.log("\n\n\n *** \n", sourceCode, this.opts)
	        throw e;
	    }
	    finally {
	        this._compilations.delete(sch);
	    }
	}
	compile.compileSchema = compileSchema;
	function resolveRef(root, baseId, ref) {
	    var _a;
	    ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, ref);
	    const schOrFunc = root.refs[ref];
	    if (schOrFunc)
	        return schOrFunc;
	    let _sch = resolve.call(this, root, ref);
	    if (_sch === undefined) {
	        const schema = (_a = root.localRefs) === null || _a === void 0 ? void 0 : _a[ref]; // TODO maybe localRefs should hold SchemaEnv
	        const { schemaId } = this.opts;
	        if (schema)
	            _sch = new SchemaEnv({ schema, schemaId, root, baseId });
	    }
	    if (_sch === undefined)
	        return;
	    return (root.refs[ref] = inlineOrCompile.call(this, _sch));
	}
	compile.resolveRef = resolveRef;
	function inlineOrCompile(sch) {
	    if ((0, resolve_1.inlineRef)(sch.schema, this.opts.inlineRefs))
	        return sch.schema;
	    return sch.validate ? sch : compileSchema.call(this, sch);
	}
	// Index of schema compilation in the currently compiled list
	function getCompilingSchema(schEnv) {
	    for (const sch of this._compilations) {
	        if (sameSchemaEnv(sch, schEnv))
	            return sch;
	    }
	}
	compile.getCompilingSchema = getCompilingSchema;
	function sameSchemaEnv(s1, s2) {
	    return s1.schema === s2.schema && s1.root === s2.root && s1.baseId === s2.baseId;
	}
	// resolve and compile the references ($ref)
	// TODO returns AnySchemaObject (if the schema can be inlined) or validation function
	function resolve(root, // information about the root schema for the current schema
	ref // reference to resolve
	) {
	    let sch;
	    while (typeof (sch = this.refs[ref]) == "string")
	        ref = sch;
	    return sch || this.schemas[ref] || resolveSchema.call(this, root, ref);
	}
	// Resolve schema, its root and baseId
	function resolveSchema(root, // root object with properties schema, refs TODO below SchemaEnv is assigned to it
	ref // reference to resolve
	) {
	    const p = this.opts.uriResolver.parse(ref);
	    const refPath = (0, resolve_1._getFullPath)(this.opts.uriResolver, p);
	    let baseId = (0, resolve_1.getFullPath)(this.opts.uriResolver, root.baseId, undefined);
	    // TODO `Object.keys(root.schema).length > 0` should not be needed - but removing breaks 2 tests
	    if (Object.keys(root.schema).length > 0 && refPath === baseId) {
	        return getJsonPointer.call(this, p, root);
	    }
	    const id = (0, resolve_1.normalizeId)(refPath);
	    const schOrRef = this.refs[id] || this.schemas[id];
	    if (typeof schOrRef == "string") {
	        const sch = resolveSchema.call(this, root, schOrRef);
	        if (typeof (sch === null || sch === void 0 ? void 0 : sch.schema) !== "object")
	            return;
	        return getJsonPointer.call(this, p, sch);
	    }
	    if (typeof (schOrRef === null || schOrRef === void 0 ? void 0 : schOrRef.schema) !== "object")
	        return;
	    if (!schOrRef.validate)
	        compileSchema.call(this, schOrRef);
	    if (id === (0, resolve_1.normalizeId)(ref)) {
	        const { schema } = schOrRef;
	        const { schemaId } = this.opts;
	        const schId = schema[schemaId];
	        if (schId)
	            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
	        return new SchemaEnv({ schema, schemaId, root, baseId });
	    }
	    return getJsonPointer.call(this, p, schOrRef);
	}
	compile.resolveSchema = resolveSchema;
	const PREVENT_SCOPE_CHANGE = new Set([
	    "properties",
	    "patternProperties",
	    "enum",
	    "dependencies",
	    "definitions",
	]);
	function getJsonPointer(parsedRef, { baseId, schema, root }) {
	    var _a;
	    if (((_a = parsedRef.fragment) === null || _a === void 0 ? void 0 : _a[0]) !== "/")
	        return;
	    for (const part of parsedRef.fragment.slice(1).split("/")) {
	        if (typeof schema === "boolean")
	            return;
	        const partSchema = schema[(0, util_1.unescapeFragment)(part)];
	        if (partSchema === undefined)
	            return;
	        schema = partSchema;
	        // TODO PREVENT_SCOPE_CHANGE could be defined in keyword def?
	        const schId = typeof schema === "object" && schema[this.opts.schemaId];
	        if (!PREVENT_SCOPE_CHANGE.has(part) && schId) {
	            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
	        }
	    }
	    let env;
	    if (typeof schema != "boolean" && schema.$ref && !(0, util_1.schemaHasRulesButRef)(schema, this.RULES)) {
	        const $ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schema.$ref);
	        env = resolveSchema.call(this, root, $ref);
	    }
	    // even though resolution failed we need to return SchemaEnv to throw exception
	    // so that compileAsync loads missing schema.
	    const { schemaId } = this.opts;
	    env = env || new SchemaEnv({ schema, schemaId, root, baseId });
	    if (env.schema !== env.root.schema)
	        return env;
	    return undefined;
	}
	
	return compile;
}

var $id$1 = "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#";
var description = "Meta-schema for $data reference (JSON AnySchema extension proposal)";
var type$1 = "object";
var required$1 = [
	"$data"
];
var properties$2 = {
	$data: {
		type: "string",
		anyOf: [
			{
				format: "relative-json-pointer"
			},
			{
				format: "json-pointer"
			}
		]
	}
};
var additionalProperties$1 = false;
var require$$9 = {
	$id: $id$1,
	description: description,
	type: type$1,
	required: required$1,
	properties: properties$2,
	additionalProperties: additionalProperties$1
};

var uri = {};

var fastUri = {exports: {}};

var utils;
var hasRequiredUtils;

function requireUtils () {
	if (hasRequiredUtils) return utils;
	hasRequiredUtils = 1;

	/** @type {(value: string) => boolean} */
	const isUUID = RegExp.prototype.test.bind(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu);

	/** @type {(value: string) => boolean} */
	const isIPv4 = RegExp.prototype.test.bind(/^(?:(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)$/u);

	/** @type {(value: string) => boolean} */
	const isPort = RegExp.prototype.test.bind(/^\d*$/u);

	/** @type {(value: string) => boolean} */
	const isHexPair = RegExp.prototype.test.bind(/^[\da-f]{2}$/iu);

	/** @type {(value: string) => boolean} */
	const isUnreserved = RegExp.prototype.test.bind(/^[\da-z\-._~]$/iu);

	/** @type {(value: string) => boolean} */
	const isPathCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/u);

	/** @type {(value: string) => boolean} */
	const isQueryFragmentCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/u);

	/** @type {(value: string) => boolean} */
	const isUserinfoCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:]$/u);

	const BYTE_HEX = new Array(256);
	{
	  const HEX_DIGITS = '0123456789ABCDEF';
	  for (let i = 0; i < 256; i++) {
	    BYTE_HEX[i] = '%' + HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 0xF];
	  }
	}
	function percentEncodeNonAscii (cp) {
	  if (cp < 0x800) {
	    return BYTE_HEX[0xC0 | (cp >> 6)] +
	           BYTE_HEX[0x80 | (cp & 0x3F)]
	  }
	  if (cp < 0x10000) {
	    return BYTE_HEX[0xE0 | (cp >> 12)] +
	           BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
	           BYTE_HEX[0x80 | (cp & 0x3F)]
	  }
	  return BYTE_HEX[0xF0 | (cp >> 18)] +
	         BYTE_HEX[0x80 | ((cp >> 12) & 0x3F)] +
	         BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
	         BYTE_HEX[0x80 | (cp & 0x3F)]
	}

	/**
	 * @param {Array<string>} input
	 * @returns {string}
	 */
	function stringArrayToHexStripped (input) {
	  let acc = '';
	  let code = 0;
	  let i = 0;

	  for (i = 0; i < input.length; i++) {
	    code = input[i].charCodeAt(0);
	    if (code === 48) {
	      continue
	    }
	    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
	      return ''
	    }
	    acc += input[i];
	    break
	  }

	  for (i += 1; i < input.length; i++) {
	    code = input[i].charCodeAt(0);
	    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
	      return ''
	    }
	    acc += input[i];
	  }
	  return acc
	}

	/** @type {(value: string) => boolean} */
	const isHextet = RegExp.prototype.test.bind(/^[\dA-Fa-f]{1,4}$/);

	/** @type {(value: string) => boolean} */
	const isIPvFuture = RegExp.prototype.test.bind(/^[vV][\dA-Fa-f]+\.[A-Za-z\d\-._~!$&'()*+,;=:]+$/);

	/** @type {(value: string) => boolean} */
	const isZoneCharacter = RegExp.prototype.test.bind(/^[A-Za-z\d\-._~]$/);

	/**
	 * @param {string} value
	 * @returns {boolean}
	 */
	const nonSimpleDomain = RegExp.prototype.test.bind(/[^!"$&'()*+,\-.;=_`a-z{}~]/u);

	/**
	 * @param {string} zone
	 * @returns {boolean}
	 */
	function isZoneIdentifier (zone) {
	  if (zone.length === 0) return false

	  for (let i = 0; i < zone.length; i++) {
	    if (isZoneCharacter(zone[i])) continue
	    if (zone[i] === '%' && i + 2 < zone.length && isHexPair(zone.slice(i + 1, i + 3))) {
	      i += 2;
	      continue
	    }
	    return false
	  }

	  return true
	}

	/**
	 * Compresses the longest run of zero hextets to "::" per RFC 5952. A run of a
	 * single zero hextet is left uncompressed. On ties the leftmost run wins.
	 *
	 * @param {string[]} hextets
	 * @returns {string}
	 */
	function compressIPv6ZeroRun (hextets) {
	  let bestStart = -1;
	  let bestLength = 0;
	  let runStart = -1;
	  let runLength = 0;
	  for (let i = 0; i < hextets.length; i++) {
	    if (hextets[i] === '0') {
	      if (runStart === -1) runStart = i;
	      runLength++;
	      if (runLength > bestLength) {
	        bestLength = runLength;
	        bestStart = runStart;
	      }
	    } else {
	      runStart = -1;
	      runLength = 0;
	    }
	  }

	  if (bestLength < 2) return hextets.join(':')

	  const head = hextets.slice(0, bestStart).join(':');
	  const tail = hextets.slice(bestStart + bestLength).join(':');
	  return head + '::' + tail
	}

	/**
	 * Validates an IPv6 address against the alternatives in RFC 3986 section
	 * 3.2.2 and returns the same address with leading hextet zeroes removed.
	 * An embedded IPv4 address counts as two hextets and is only valid at the end.
	 *
	 * @param {string} input
	 * @returns {string|undefined}
	 */
	function normalizeIPv6Address (input) {
	  const compression = input.indexOf('::');
	  if (compression !== -1 && input.indexOf('::', compression + 1) !== -1) return undefined

	  const left = compression === -1 ? input.split(':') : input.slice(0, compression).split(':');
	  const right = compression === -1 ? [] : input.slice(compression + 2).split(':');
	  if (compression !== -1) {
	    if (left.length === 1 && left[0] === '') left.length = 0;
	    if (right.length === 1 && right[0] === '') right.length = 0;
	  }

	  const parts = left.concat(right);
	  let hextetCount = 0;
	  for (let i = 0; i < parts.length; i++) {
	    const part = parts[i];
	    if (part === '') return undefined

	    if (part.indexOf('.') !== -1) {
	      if (i !== parts.length - 1 || (compression !== -1 && right.length === 0) || !isIPv4(part)) return undefined
	      hextetCount += 2;
	      continue
	    }

	    if (!isHextet(part)) return undefined
	    parts[i] = parseInt(part, 16).toString(16);
	    hextetCount++;
	  }

	  if (compression === -1) {
	    if (hextetCount !== 8) return undefined
	    return compressIPv6ZeroRun(parts)
	  }
	  if (hextetCount >= 8) return undefined

	  // expand "::" then re-compress the longest run for a canonical result
	  const expanded = parts.slice(0, left.length);
	  for (let i = hextetCount; i < 8; i++) expanded.push('0');
	  for (let i = left.length; i < parts.length; i++) expanded.push(parts[i]);
	  return compressIPv6ZeroRun(expanded)
	}

	/**
	 * @typedef {Object} NormalizeIPv6Result
	 * @property {string} host - The normalized host.
	 * @property {string} [escapedHost] - The escaped host.
	 * @property {boolean} isIPV6 - Indicates if the host is an IPv6 address.
	 * @property {boolean} [isIPVFuture] - Indicates if the host is an IPvFuture literal.
	 * @property {boolean} [error] - Indicates if a bracketed IP literal is malformed.
	 */

	/**
	 * Validates and normalizes a bracketed IP literal. Raw zone separators remain
	 * accepted for backwards compatibility, while encoded separators and zone
	 * contents follow RFC 6874.
	 *
	 * @param {string} host
	 * @returns {NormalizeIPv6Result}
	 */
	function normalizeIPv6 (host) {
	  const bracketed = host[0] === '[' && host[host.length - 1] === ']';
	  const hasBracket = host[0] === '[' || host[host.length - 1] === ']';
	  if (hasBracket && !bracketed) return { host, isIPV6: false, error: true }

	  let input = bracketed ? host.slice(1, -1) : host;
	  if (bracketed && isIPvFuture(input)) {
	    input = input.toLowerCase();
	    return { host: `[${input}]`, escapedHost: input, isIPV6: false, isIPVFuture: true }
	  }

	  if (findToken(input, ':') < 2) {
	    return { host, isIPV6: false, error: bracketed }
	  }

	  let zoneIdentifier = '';
	  const zoneSeparator = input.indexOf('%');
	  if (zoneSeparator !== -1) {
	    const separatorLength = input.slice(zoneSeparator, zoneSeparator + 3).toLowerCase() === '%25' ? 3 : 1;
	    zoneIdentifier = input.slice(zoneSeparator + separatorLength);
	    if (!isZoneIdentifier(zoneIdentifier)) return { host, isIPV6: false, error: true }
	    input = input.slice(0, zoneSeparator);
	  }

	  const address = normalizeIPv6Address(input);
	  if (address === undefined) return { host, isIPV6: false, error: true }

	  return {
	    host: address + (zoneIdentifier ? '%' + zoneIdentifier : ''),
	    escapedHost: address + (zoneIdentifier ? '%25' + zoneIdentifier : ''),
	    isIPV6: true
	  }
	}

	/**
	 * @param {string} str
	 * @param {string} token
	 * @returns {number}
	 */
	function findToken (str, token) {
	  let ind = 0;
	  for (let i = 0; i < str.length; i++) {
	    if (str[i] === token) ind++;
	  }
	  return ind
	}

	/**
	 * @param {string} path
	 * @returns {string}
	 *
	 * @see https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.4
	 */
	function removeDotSegments (path) {
	  let input = path;
	  const output = [];
	  let nextSlash = -1;
	  let len = 0;

	  // eslint-disable-next-line no-cond-assign
	  while (len = input.length) {
	    if (len === 1) {
	      if (input === '.') {
	        break
	      } else if (input === '/') {
	        output.push('/');
	        break
	      } else {
	        output.push(input);
	        break
	      }
	    } else if (len === 2) {
	      if (input[0] === '.') {
	        if (input[1] === '.') {
	          break
	        } else if (input[1] === '/') {
	          input = input.slice(2);
	          continue
	        }
	      } else if (input[0] === '/') {
	        if (input[1] === '.' || input[1] === '/') {
	          output.push('/');
	          break
	        }
	      }
	    } else if (len === 3) {
	      if (input === '/..') {
	        if (output.length !== 0) {
	          output.pop();
	        }
	        output.push('/');
	        break
	      }
	    }
	    if (input[0] === '.') {
	      if (input[1] === '.') {
	        if (input[2] === '/') {
	          input = input.slice(3);
	          continue
	        }
	      } else if (input[1] === '/') {
	        input = input.slice(2);
	        continue
	      }
	    } else if (input[0] === '/') {
	      if (input[1] === '.') {
	        if (input[2] === '/') {
	          input = input.slice(2);
	          continue
	        } else if (input[2] === '.') {
	          if (input[3] === '/') {
	            input = input.slice(3);
	            if (output.length !== 0) {
	              output.pop();
	            }
	            continue
	          }
	        }
	      }
	    }

	    // Rule 2E: Move normal path segment to output
	    if ((nextSlash = input.indexOf('/', 1)) === -1) {
	      output.push(input);
	      break
	    } else {
	      output.push(input.slice(0, nextSlash));
	      input = input.slice(nextSlash);
	    }
	  }

	  return output.join('')
	}

	/**
	 * Removes dot segments from the path of a relative reference (a path that does
	 * not start with "/") without changing what it resolves to against any base.
	 * Unlike `removeDotSegments`, leading ".." segments that cannot be collapsed
	 * are kept, the result never becomes root-relative, and a result that would be
	 * empty or start with an empty segment is prefixed with "." (an empty path
	 * means "same document" and a leading "//" would introduce an authority).
	 *
	 * @param {string} path
	 * @returns {string}
	 */
	function removeDotSegmentsRelative (path) {
	  if (path === '' || path[0] === '/') {
	    return removeDotSegments(path)
	  }

	  const segments = path.split('/');
	  const last = segments.length - 1;
	  /** @type {string[]} */
	  const output = [];
	  let trailingDirectory = false;

	  for (let i = 0; i <= last; i++) {
	    const segment = segments[i];
	    if (segment === '.' || segment === '..') {
	      if (segment === '..') {
	        if (output.length !== 0 && output[output.length - 1] !== '..') {
	          output.pop();
	        } else {
	          output.push('..');
	        }
	      }
	      trailingDirectory = i === last;
	    } else {
	      output.push(segment);
	    }
	  }

	  if (trailingDirectory && output[output.length - 1] !== '..') {
	    output.push('');
	  }
	  if (output.length === 0 || output[0] === '' || output[0].includes(':')) {
	    // An empty path, a leading empty segment ("//"), or a first segment
	    // containing ":" (which would be mistaken for a scheme, RFC 3986 section
	    // 4.2) must stay behind a "." segment so the reference keeps its meaning.
	    output.unshift('.');
	  }

	  return output.join('/')
	}

	/**
	 * Re-escape RFC 3986 gen-delims that must not appear literally in the host.
	 * After the URI regex parses, these characters cannot be literal in the host
	 * field, so any that appear after decoding came from percent-encoding and
	 * must be restored to prevent authority structure changes.
	 *
	 * @param {string} host
	 * @param {boolean} isIP - true for IPv4/IPv6 hosts (skip colon re-escaping)
	 * @returns {string}
	 */
	const HOST_DELIMS = { '@': '%40', '/': '%2F', '?': '%3F', '#': '%23', ':': '%3A' };
	const HOST_DELIM_RE = /[@/?#:]/g;
	const HOST_DELIM_NO_COLON_RE = /[@/?#]/g;

	function reescapeHostDelimiters (host, isIP) {
	  const re = isIP ? HOST_DELIM_NO_COLON_RE : HOST_DELIM_RE;
	  re.lastIndex = 0;
	  return host.replace(re, (ch) => HOST_DELIMS[ch])
	}

	/**
	 * Normalizes percent escapes and optionally decodes only unreserved ASCII bytes.
	 * Reserved delimiters such as `%2F` stay escaped; `%2E` is unreserved.
	 *
	 * @param {string} input
	 * @param {boolean} [decodeUnreserved=false]
	 * @returns {string}
	 */
	function normalizePercentEncoding (input, decodeUnreserved = false) {
	  if (input.indexOf('%') === -1) {
	    return input
	  }

	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    if (input[i] === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (decodeUnreserved && isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    output += input[i];
	  }

	  return output
	}

	/**
	 * Normalizes path data without turning reserved escapes into live path syntax.
	 * Valid escapes are uppercased, raw unsafe characters are escaped, and only
	 * unreserved bytes that are not `.` are decoded.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function normalizePathEncoding (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (decoded !== '.' && isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    if (isPathCharacter(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Serializes a path without rewriting reserved data. Raw RFC 3986 path
	 * characters remain literal, valid escapes are preserved and uppercased, and
	 * everything else is UTF-8 percent-encoded. In a path-noscheme, a colon in the
	 * first segment must be escaped so the result cannot be parsed as a scheme.
	 *
	 * @param {string} input
	 * @param {boolean} [pathNoScheme=false]
	 * @returns {string}
	 */
	function serializePathEncoding (input, pathNoScheme = false) {
	  let output = '';
	  let firstSegment = pathNoScheme && input[0] !== '/';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    if (ch === '/') {
	      firstSegment = false;
	    }

	    if (isPathCharacter(ch) && (ch !== ':' || !firstSegment)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Percent-encodes a URI component using its RFC 3986 literal character set.
	 * Existing valid escapes are preserved and normalized to uppercase hex.
	 *
	 * @param {string} input
	 * @param {(value: string) => boolean} isAllowed
	 * @returns {string}
	 */
	function encodeComponent (input, isAllowed) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    if (isAllowed(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Encodes userinfo while preserving its RFC 3986 §3.2.1 literal characters.
	 * In particular, authority delimiters such as `@`, `/`, `?`, and `#` are data.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeUserinfo (input) {
	  return encodeComponent(input, isUserinfoCharacter)
	}

	/**
	 * Encodes query data using the RFC 3986 §3.4 grammar. A literal `#` must be
	 * escaped because it would otherwise begin the fragment component.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeQuery (input) {
	  return encodeComponent(input, isQueryFragmentCharacter)
	}

	/**
	 * Encodes fragment data using the RFC 3986 §3.5 grammar.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeFragment (input) {
	  return encodeComponent(input, isQueryFragmentCharacter)
	}

	function isEscapeSafe (cp) {
	  return (
	    (cp >= 0x30 && cp <= 0x39) ||
	    (cp >= 0x41 && cp <= 0x5A) ||
	    (cp >= 0x61 && cp <= 0x7A) ||
	    cp === 0x2A || cp === 0x2B || cp === 0x2D || cp === 0x2E ||
	    cp === 0x2F || cp === 0x40 || cp === 0x5F
	  )
	}

	/**
	 * Normalizes the percent-encoding of a query or fragment component.
	 *
	 * Like `normalizePathEncoding`, but uses the query/fragment character set
	 * (which additionally allows `?`) and decodes `.` since it has no dot-segment
	 * meaning outside of a path.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function normalizeQueryFragmentEncoding (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    if (isQueryFragmentCharacter(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Escapes a component while preserving existing valid percent escapes.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function escapePreservingEscapes (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    if (input[i] === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    output += escape(input[i]);
	  }

	  return output
	}

	/**
	 * @param {import('../types/index').URIComponent} component
	 * @returns {string|undefined}
	 */
	function recomposeAuthority (component) {
	  const uriTokens = [];

	  if (component.userinfo !== undefined) {
	    uriTokens.push(encodeUserinfo(component.userinfo));
	    uriTokens.push('@');
	  }

	  if (component.host !== undefined) {
	    let host = component.host;
	    if (!isIPv4(host)) {
	      let ipV6res = normalizeIPv6(host);
	      if (ipV6res.isIPV6 !== true && ipV6res.isIPVFuture !== true) {
	        // Decode only unreserved bytes, once. In particular, keep %25 encoded
	        // so it cannot introduce a second escape during recomposition.
	        host = normalizePercentEncoding(host, true);
	        ipV6res = normalizeIPv6(host);
	      }
	      if (ipV6res.isIPV6 === true || ipV6res.isIPVFuture === true) {
	        host = `[${ipV6res.escapedHost}]`;
	      } else {
	        host = reescapeHostDelimiters(host, false);
	      }
	    }
	    uriTokens.push(host);
	  }

	  if (typeof component.port === 'number' || typeof component.port === 'string') {
	    const port = String(component.port);
	    if (!isPort(port)) {
	      throw new TypeError('URI port is malformed.')
	    }
	    uriTokens.push(':');
	    uriTokens.push(port);
	  }

	  return uriTokens.length ? uriTokens.join('') : undefined
	}
	utils = {
	  nonSimpleDomain,
	  recomposeAuthority,
	  reescapeHostDelimiters,
	  normalizePercentEncoding,
	  normalizePathEncoding,
	  serializePathEncoding,
	  normalizeQueryFragmentEncoding,
	  encodeUserinfo,
	  encodeQuery,
	  encodeFragment,
	  escapePreservingEscapes,
	  removeDotSegments,
	  removeDotSegmentsRelative,
	  isIPv4,
	  isUUID,
	  normalizeIPv6,
	  stringArrayToHexStripped
	};
	return utils;
}

var schemes;
var hasRequiredSchemes;

function requireSchemes () {
	if (hasRequiredSchemes) return schemes;
	hasRequiredSchemes = 1;

	const { isUUID } = requireUtils();
	const URN_REG = /^([\da-z][\d\-a-z]{0,31}):((?:[\w!$'()*+,\-./:;=@]|%[\da-f]{2})+)$/iu;

	const supportedSchemeNames = /** @type {const} */ (['http', 'https', 'ws',
	  'wss', 'urn', 'urn:uuid']);

	/** @typedef {supportedSchemeNames[number]} SchemeName */

	/**
	 * @param {string} name
	 * @returns {name is SchemeName}
	 */
	function isValidSchemeName (name) {
	  return supportedSchemeNames.indexOf(/** @type {*} */ (name)) !== -1
	}

	/**
	 * @callback SchemeFn
	 * @param {import('../types/index').URIComponent} component
	 * @param {import('../types/index').Options} options
	 * @returns {import('../types/index').URIComponent}
	 */

	/**
	 * @typedef {Object} SchemeHandler
	 * @property {SchemeName} scheme - The scheme name.
	 * @property {boolean} [domainHost] - Indicates if the scheme supports domain hosts.
	 * @property {SchemeFn} parse - Function to parse the URI component for this scheme.
	 * @property {SchemeFn} serialize - Function to serialize the URI component for this scheme.
	 * @property {boolean} [skipNormalize] - Indicates if normalization should be skipped for this scheme.
	 * @property {boolean} [absolutePath] - Indicates if the scheme uses absolute paths.
	 * @property {boolean} [unicodeSupport] - Indicates if the scheme supports Unicode.
	 */

	/**
	 * @param {import('../types/index').URIComponent} wsComponent
	 * @returns {boolean}
	 */
	function wsIsSecure (wsComponent) {
	  if (wsComponent.secure === true) {
	    return true
	  } else if (wsComponent.secure === false) {
	    return false
	  } else if (wsComponent.scheme) {
	    return (
	      wsComponent.scheme.length === 3 &&
	      (wsComponent.scheme[0] === 'w' || wsComponent.scheme[0] === 'W') &&
	      (wsComponent.scheme[1] === 's' || wsComponent.scheme[1] === 'S') &&
	      (wsComponent.scheme[2] === 's' || wsComponent.scheme[2] === 'S')
	    )
	  } else {
	    return false
	  }
	}

	/** @type {SchemeFn} */
	function httpParse (component) {
	  if (!component.host) {
	    component.error = component.error || 'HTTP URIs must have a host.';
	  }

	  return component
	}

	/** @type {SchemeFn} */
	function httpSerialize (component) {
	  const secure = String(component.scheme).toLowerCase() === 'https';

	  // normalize the default port
	  if (component.port === (secure ? 443 : 80) || component.port === '') {
	    component.port = undefined;
	  }

	  // normalize the empty path
	  if (!component.path) {
	    component.path = '/';
	  }

	  // NOTE: We do not parse query strings for HTTP URIs
	  // as WWW Form Url Encoded query strings are part of the HTML4+ spec,
	  // and not the HTTP spec.

	  return component
	}

	/** @type {SchemeFn} */
	function wsParse (wsComponent) {
	// indicate if the secure flag is set
	  wsComponent.secure = wsIsSecure(wsComponent);

	  // construct resouce name
	  wsComponent.resourceName = (wsComponent.path || '/') + (wsComponent.query ? '?' + wsComponent.query : '');
	  wsComponent.path = undefined;
	  wsComponent.query = undefined;

	  return wsComponent
	}

	/** @type {SchemeFn} */
	function wsSerialize (wsComponent) {
	// normalize the default port
	  if (wsComponent.port === (wsIsSecure(wsComponent) ? 443 : 80) || wsComponent.port === '') {
	    wsComponent.port = undefined;
	  }

	  // ensure scheme matches secure flag
	  if (typeof wsComponent.secure === 'boolean') {
	    wsComponent.scheme = (wsComponent.secure ? 'wss' : 'ws');
	    wsComponent.secure = undefined;
	  }

	  // reconstruct path from resource name
	  if (wsComponent.resourceName) {
	    const queryIndex = wsComponent.resourceName.indexOf('?');
	    const path = queryIndex === -1
	      ? wsComponent.resourceName
	      : wsComponent.resourceName.slice(0, queryIndex);
	    wsComponent.path = (path && path !== '/' ? path : undefined);
	    wsComponent.query = queryIndex === -1
	      ? undefined
	      : wsComponent.resourceName.slice(queryIndex + 1);
	    wsComponent.resourceName = undefined;
	  }

	  // forbid fragment component
	  wsComponent.fragment = undefined;

	  return wsComponent
	}

	/** @type {SchemeFn} */
	function urnParse (urnComponent, options) {
	  if (!urnComponent.path) {
	    urnComponent.error = 'URN can not be parsed';
	    return urnComponent
	  }
	  const matches = urnComponent.path.match(URN_REG);
	  if (matches && matches[0] === urnComponent.path) {
	    const scheme = options.scheme || urnComponent.scheme || 'urn';
	    urnComponent.nid = matches[1].toLowerCase();
	    urnComponent.nss = matches[2];
	    const urnScheme = `${scheme}:${options.nid || urnComponent.nid}`;
	    const schemeHandler = getSchemeHandler(urnScheme);
	    urnComponent.path = undefined;

	    if (schemeHandler) {
	      urnComponent = schemeHandler.parse(urnComponent, options);
	    }
	  } else {
	    urnComponent.error = urnComponent.error || 'URN can not be parsed.';
	  }

	  return urnComponent
	}

	/** @type {SchemeFn} */
	function urnSerialize (urnComponent, options) {
	  if (urnComponent.nid === undefined) {
	    throw new Error('URN without nid cannot be serialized')
	  }
	  const scheme = options.scheme || urnComponent.scheme || 'urn';
	  const nid = urnComponent.nid.toLowerCase();
	  const urnScheme = `${scheme}:${options.nid || nid}`;
	  const schemeHandler = getSchemeHandler(urnScheme);

	  if (schemeHandler) {
	    urnComponent = schemeHandler.serialize(urnComponent, options);
	  }

	  const uriComponent = urnComponent;
	  const nss = urnComponent.nss;
	  uriComponent.path = `${nid || options.nid}:${nss}`;

	  options.skipEscape = true;
	  return uriComponent
	}

	/** @type {SchemeFn} */
	function urnuuidParse (urnComponent, options) {
	  const uuidComponent = urnComponent;
	  uuidComponent.uuid = uuidComponent.nss;
	  uuidComponent.nss = undefined;

	  if (!options.tolerant && (!uuidComponent.uuid || !isUUID(uuidComponent.uuid))) {
	    uuidComponent.error = uuidComponent.error || 'UUID is not valid.';
	  }

	  return uuidComponent
	}

	/** @type {SchemeFn} */
	function urnuuidSerialize (uuidComponent) {
	  const urnComponent = uuidComponent;
	  // normalize UUID
	  urnComponent.nss = (uuidComponent.uuid || '').toLowerCase();
	  return urnComponent
	}

	const http = /** @type {SchemeHandler} */ ({
	  scheme: 'http',
	  domainHost: true,
	  parse: httpParse,
	  serialize: httpSerialize
	});

	const https = /** @type {SchemeHandler} */ ({
	  scheme: 'https',
	  domainHost: http.domainHost,
	  parse: httpParse,
	  serialize: httpSerialize
	});

	const ws = /** @type {SchemeHandler} */ ({
	  scheme: 'ws',
	  domainHost: true,
	  parse: wsParse,
	  serialize: wsSerialize
	});

	const wss = /** @type {SchemeHandler} */ ({
	  scheme: 'wss',
	  domainHost: ws.domainHost,
	  parse: ws.parse,
	  serialize: ws.serialize
	});

	const urn = /** @type {SchemeHandler} */ ({
	  scheme: 'urn',
	  parse: urnParse,
	  serialize: urnSerialize,
	  skipNormalize: true
	});

	const urnuuid = /** @type {SchemeHandler} */ ({
	  scheme: 'urn:uuid',
	  parse: urnuuidParse,
	  serialize: urnuuidSerialize,
	  skipNormalize: true
	});

	const SCHEMES = /** @type {Record<SchemeName, SchemeHandler>} */ ({
	  http,
	  https,
	  ws,
	  wss,
	  urn,
	  'urn:uuid': urnuuid
	});

	Object.setPrototypeOf(SCHEMES, null);

	/**
	 * @param {string|undefined} scheme
	 * @returns {SchemeHandler|undefined}
	 */
	function getSchemeHandler (scheme) {
	  return (
	    scheme && (
	      SCHEMES[/** @type {SchemeName} */ (scheme)] ||
	      SCHEMES[/** @type {SchemeName} */(scheme.toLowerCase())])
	  ) ||
	    undefined
	}

	schemes = {
	  wsIsSecure,
	  SCHEMES,
	  isValidSchemeName,
	  getSchemeHandler,
	};
	return schemes;
}

var hasRequiredFastUri;

function requireFastUri () {
	if (hasRequiredFastUri) return fastUri.exports;
	hasRequiredFastUri = 1;

	const { normalizeIPv6, removeDotSegments, removeDotSegmentsRelative, recomposeAuthority, normalizePercentEncoding, normalizePathEncoding, serializePathEncoding, normalizeQueryFragmentEncoding, encodeQuery, encodeFragment, reescapeHostDelimiters, isIPv4, nonSimpleDomain } = requireUtils();
	const { SCHEMES, getSchemeHandler } = requireSchemes();

	const VALID_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/u;
	const MALFORMED_SCHEME_ERROR = 'URI scheme is malformed.';
	const MALFORMED_HOST_ERROR = 'URI host is malformed.';
	// ASCII characters outside the RFC 3986 reg-name set (unreserved, sub-delims
	// and "%" for pct-encoded): C0 controls, space, DEL, and "#/:<>?@[\]^`{|}.
	const FORBIDDEN_DOMAIN_HOST_CHARACTER = /[\0-\x20"#/:<>?@[\\\]^`{|}\x7F]/u;

	/**
	 * RFC 3986 section 3.1 does not allow percent-encoding in a scheme, so the
	 * scheme is validated as-is and never decoded. Decoding would let inert input
	 * such as `%6Aavascript:` become a live `javascript:` scheme.
	 *
	 * @param {string} scheme
	 * @returns {string}
	 */
	function validateScheme (scheme) {
	  const stringScheme = String(scheme);
	  if (!VALID_SCHEME.test(stringScheme)) {
	    throw new TypeError(MALFORMED_SCHEME_ERROR)
	  }
	  return stringScheme
	}

	/**
	 * @template {import('./types/index').URIComponent|string} T
	 * @param {T} uri
	 * @param {import('./types/index').Options} [options]
	 * @returns {T}
	 */
	function normalize (uri, options) {
	  if (typeof uri === 'string') {
	    uri = /** @type {T} */ (normalizeString(uri, options));
	  } else if (typeof uri === 'object') {
	    uri = /** @type {T} */ (parse(serialize(uri, options), options));
	  }
	  return uri
	}

	/**
	 * @param {string} baseURI
	 * @param {string} relativeURI
	 * @param {import('./types/index').Options} [options]
	 * @returns {string}
	 */
	function resolve (baseURI, relativeURI, options) {
	  const schemelessOptions = options ? Object.assign({ scheme: 'null' }, options) : { scheme: 'null' };
	  const {
	    parsed: baseParsed,
	    malformedAuthorityOrPort: baseMalformed,
	    malformedPercentEncoding: baseMalformedPercentEncoding,
	    malformedSchemeSpecific: baseMalformedSchemeSpecific,
	    malformedHost: baseMalformedHost,
	    malformedScheme: baseMalformedScheme
	  } = parseWithStatus(baseURI, schemelessOptions);
	  const {
	    parsed: relativeParsed,
	    malformedAuthorityOrPort: relativeMalformed,
	    malformedPercentEncoding: relativeMalformedPercentEncoding,
	    malformedSchemeSpecific: relativeMalformedSchemeSpecific,
	    malformedHost: relativeMalformedHost,
	    malformedScheme: relativeMalformedScheme
	  } = parseWithStatus(relativeURI, schemelessOptions);
	  if (
	    baseMalformed ||
	    relativeMalformed ||
	    baseMalformedPercentEncoding ||
	    relativeMalformedPercentEncoding ||
	    baseMalformedSchemeSpecific ||
	    relativeMalformedSchemeSpecific ||
	    baseMalformedHost ||
	    relativeMalformedHost ||
	    baseMalformedScheme ||
	    relativeMalformedScheme
	  ) {
	    throw new Error(baseParsed.error || relativeParsed.error || 'URI is malformed.')
	  }
	  const resolved = resolveComponent(baseParsed, relativeParsed, schemelessOptions, true);
	  const resolvedSchemeHandler = getSchemeHandler((options && options.scheme) || resolved.scheme);
	  const resolvedHost = resolved.host;
	  const resolvedHostIsIP = resolvedHost !== undefined && resolvedHost !== '' &&
	    (isIPv4(resolvedHost) || normalizeIPv6(resolvedHost).isIPV6);
	  // Inputs are parsed scheme-neutrally, so delimiters and controls in a domain
	  // host are only detected here, once the final scheme is known. They always
	  // fail closed, including in percent-encoded hosts.
	  if (hasForbiddenDomainHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP)) {
	    throw new Error(MALFORMED_HOST_ERROR)
	  }
	  canonicalizeHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP);
	  // Percent escapes in an ASCII reg-name are encoded data. The WHATWG hostname
	  // parser can reject them even though fast-uri preserves them safely as RFC
	  // 3986 data. A raw non-ASCII host must still fail closed if conversion fails.
	  const encodedASCIIHost = resolvedHost && resolvedHost.indexOf('%') !== -1 &&
	    !/\P{ASCII}/u.test(resolvedHost);
	  if (resolved.error && !encodedASCIIHost) {
	    throw new Error(resolved.error)
	  }
	  schemelessOptions.skipEscape = true;
	  return serialize(resolved, schemelessOptions)
	}

	/**
	 * @param {import ('./types/index').URIComponent} base
	 * @param {import ('./types/index').URIComponent} relative
	 * @param {import('./types/index').Options} [options]
	 * @param {boolean} [skipNormalization=false]
	 * @returns {import ('./types/index').URIComponent}
	 */
	function resolveComponent (base, relative, options, skipNormalization) {
	  /** @type {import('./types/index').URIComponent} */
	  const target = {};
	  if (!skipNormalization) {
	    base = parse(serialize(base, options), options); // normalize base component
	    relative = parse(serialize(relative, options), options); // normalize relative component
	  }
	  options = options || {};

	  if (!options.tolerant && relative.scheme) {
	    target.scheme = relative.scheme;
	    // target.authority = relative.authority;
	    target.userinfo = relative.userinfo;
	    target.host = relative.host;
	    target.port = relative.port;
	    target.path = removeDotSegments(relative.path || '');
	    target.query = relative.query;
	  } else {
	    if (relative.userinfo !== undefined || relative.host !== undefined || relative.port !== undefined) {
	      // target.authority = relative.authority;
	      target.userinfo = relative.userinfo;
	      target.host = relative.host;
	      target.port = relative.port;
	      target.path = removeDotSegments(relative.path || '');
	      target.query = relative.query;
	    } else {
	      if (!relative.path) {
	        target.path = base.path;
	        if (relative.query !== undefined) {
	          target.query = relative.query;
	        } else {
	          target.query = base.query;
	        }
	      } else {
	        if (relative.path[0] === '/') {
	          target.path = removeDotSegments(relative.path);
	        } else {
	          const baseHasAuthority = base.userinfo !== undefined || base.host !== undefined || base.port !== undefined;
	          if (baseHasAuthority && !base.path) {
	            target.path = '/' + relative.path;
	          } else if (!base.path) {
	            target.path = relative.path;
	          } else {
	            target.path = base.path.slice(0, base.path.lastIndexOf('/') + 1) + relative.path;
	          }
	          target.path = base.scheme === undefined && !baseHasAuthority && target.path[0] !== '/'
	            ? removeDotSegmentsRelative(target.path)
	            : removeDotSegments(target.path);
	        }
	        target.query = relative.query;
	      }
	      // target.authority = base.authority;
	      target.userinfo = base.userinfo;
	      target.host = base.host;
	      target.port = base.port;
	    }
	    target.scheme = base.scheme;
	  }

	  target.fragment = relative.fragment;

	  return target
	}

	/**
	 * @param {import ('./types/index').URIComponent|string} uriA
	 * @param {import ('./types/index').URIComponent|string} uriB
	 * @param {import ('./types/index').Options} options
	 * @returns {boolean}
	 */
	function equal (uriA, uriB, options) {
	  const normalizedA = normalizeComparableURI(uriA, options);
	  const normalizedB = normalizeComparableURI(uriB, options);

	  return normalizedA !== undefined && normalizedB !== undefined && normalizedA === normalizedB
	}

	/**
	 * @param {Readonly<import('./types/index').URIComponent>} cmpts
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string}
	 */
	function serialize (cmpts, opts) {
	  const component = {
	    host: cmpts.host,
	    scheme: cmpts.scheme,
	    userinfo: cmpts.userinfo,
	    port: cmpts.port,
	    path: cmpts.path,
	    query: cmpts.query,
	    nid: cmpts.nid,
	    nss: cmpts.nss,
	    uuid: cmpts.uuid,
	    fragment: cmpts.fragment,
	    reference: cmpts.reference,
	    resourceName: cmpts.resourceName,
	    secure: cmpts.secure,
	    error: ''
	  };
	  const options = Object.assign({}, opts);
	  const uriTokens = [];

	  if (component.scheme) {
	    component.scheme = validateScheme(component.scheme);
	  }

	  // find scheme handler
	  const schemeHandler = getSchemeHandler(options.scheme || component.scheme);

	  // perform scheme specific serialization
	  if (schemeHandler && schemeHandler.serialize) schemeHandler.serialize(component, options);

	  const hasAuthority = component.userinfo !== undefined || component.host !== undefined || component.port !== undefined;
	  // A reference with no emitted scheme is path-noscheme: a bare ':' in its
	  // first path segment would reparse as a scheme (RFC 3986 3.3/4.2). Enforced
	  // under skipEscape too (resolve()), so the reapply below gates on this flag.
	  const schemelessReference = (component.scheme === undefined || options.reference === 'suffix') && !hasAuthority;
	  const pathNoScheme = !options.skipEscape && schemelessReference;

	  if (component.path !== undefined) {
	    if (!options.skipEscape) {
	      component.path = serializePathEncoding(component.path, pathNoScheme);
	    } else {
	      component.path = normalizePercentEncoding(component.path);
	    }
	  }

	  if (options.reference !== 'suffix' && component.scheme) {
	    // Scheme handlers may replace the scheme during serialization.
	    component.scheme = validateScheme(component.scheme);
	    uriTokens.push(component.scheme, ':');
	  }

	  const authority = recomposeAuthority(component);
	  if (authority !== undefined) {
	    if (options.reference !== 'suffix') {
	      uriTokens.push('//');
	    }

	    uriTokens.push(authority);

	    if (component.path && component.path[0] !== '/') {
	      uriTokens.push('/');
	    }
	  }
	  if (component.path !== undefined) {
	    let s = component.path;

	    if (!options.absolutePath && (!schemeHandler || !schemeHandler.absolutePath)) {
	      // A relative-path reference keeps its unresolvable leading ".." segments
	      // and must never become root-relative (RFC 3986 section 5.2.4 applies to
	      // merged target paths, not to the reference itself).
	      s = schemelessReference && s[0] !== '/'
	        ? removeDotSegmentsRelative(s)
	        : removeDotSegments(s);
	    }

	    // Dot-segment removal can expose a colon that was not originally in the
	    // first segment (for example, "./a:b"). Reapply path-noscheme encoding so
	    // the serialized relative reference cannot be reparsed as a URI scheme.
	    if (schemelessReference) {
	      s = serializePathEncoding(s, true);
	    }

	    if (
	      authority === undefined &&
	      s[0] === '/' &&
	      s[1] === '/'
	    ) {
	      // don't allow the path to start with "//"
	      s = '/%2F' + s.slice(2);
	    }

	    uriTokens.push(s);
	  }

	  if (component.query !== undefined) {
	    uriTokens.push('?', encodeQuery(component.query));
	  }

	  if (component.fragment !== undefined) {
	    uriTokens.push('#', encodeFragment(component.fragment));
	  }
	  return uriTokens.join('')
	}

	const URI_PARSE = /^(?:([^#/:?]+):)?(?:\/\/((?:([^#/?@]*)@)?(\[[^#/?\]]+\]|[^#/:?]*)(?::(\d*))?))?([^#?]*)(?:\?([^#]*))?(?:#((?:.|[\n\r])*))?/u;

	// Captures the authority component (between "//" and the next "/", "?" or "#"),
	// with or without a scheme prefix, for the literal-backslash rejection below.
	const AUTHORITY_PREFIX = /^(?:[^#/:?]+:)?\/\/([^/?#]*)/;

	// Captures the leading authority-introducer region after an optional scheme: a
	// run of forward slashes, backslashes, and the characters the WHATWG URL parser
	// removes before parsing (TAB U+0009, LF U+000A, CR U+000D). A valid introducer
	// is exactly "//". Node treats "\" as "/" on special schemes and strips those
	// characters first, so forms like "\\", "/\", "\/", "/<TAB>/", or a leading
	// "<TAB>//" reach an authority in Node while fast-uri's URI_PARSE folds them into
	// the path group (host confusion / SSRF / redirect bypass).
	const AUTHORITY_INTRODUCER_REGION = /^(?:[^#/:?]+:)?([/\\\t\n\r]*)/;

	/**
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {RegExpMatchArray} matches
	 * @returns {string|undefined}
	 */
	function getParseError (parsed, matches) {
	  if (matches[2] !== undefined && parsed.path && parsed.path[0] !== '/') {
	    return 'URI path must start with "/" when authority is present.'
	  }

	  if (typeof parsed.port === 'number' && (parsed.port < 0 || parsed.port > 65535)) {
	    return 'URI port is malformed.'
	  }

	  return undefined
	}

	/**
	 * Checks percent syntax without decoding the represented octets. RFC 3986
	 * percent-encoding is byte-oriented, so sequences such as `%FF` are valid even
	 * though they are not independently valid UTF-8.
	 *
	 * @param {string|undefined} component
	 * @returns {boolean}
	 */
	function hasMalformedPercentEncoding (component) {
	  if (component === undefined) return false

	  let percent = component.indexOf('%');
	  while (percent !== -1) {
	    if (percent + 2 >= component.length || !/^[\da-f]{2}$/iu.test(component.slice(percent + 1, percent + 3))) {
	      return true
	    }
	    percent = component.indexOf('%', percent + 3);
	  }

	  return false
	}

	/**
	 * Whether the host is a bracketed IP literal (RFC 3986 `IP-literal`).
	 * An unterminated `[` is not a literal, so it must still be validated as a
	 * reg-name instead of being waved through as an IP.
	 *
	 * @param {string} host
	 * @returns {boolean}
	 */
	function isIPLiteral (host) {
	  return host[0] === '[' && host[host.length - 1] === ']'
	}

	/**
	 * @param {RegExpMatchArray} matches
	 * @returns {boolean}
	 */
	function hasMalformedComponentPercentEncoding (matches) {
	  // Bracketed IP literals use a raw "%" as the zone separator for historical
	  // compatibility. Their parsing is intentionally left to normalizeIPv6.
	  const host = matches[4];
	  return hasMalformedPercentEncoding(matches[3]) ||
	    (host !== undefined && !isIPLiteral(host) && hasMalformedPercentEncoding(host)) ||
	    hasMalformedPercentEncoding(matches[6]) ||
	    hasMalformedPercentEncoding(matches[7]) ||
	    hasMalformedPercentEncoding(matches[8])
	}

	/**
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {import('./types/index').Options} options
	 * @param {{ domainHost?: boolean, unicodeSupport?: boolean }|undefined} schemeHandler
	 * @param {boolean} isIP
	 * @returns {boolean} whether host conversion failed
	 */
	function canonicalizeHost (parsed, options, schemeHandler, isIP) {
	  if (hasForbiddenDomainHost(parsed, options, schemeHandler, isIP)) {
	    parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	    return true
	  }

	  if (
	    !options.unicodeSupport &&
	    (!schemeHandler || !schemeHandler.unicodeSupport) &&
	    parsed.host &&
	    !isIPLiteral(parsed.host) &&
	    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
	    isIP === false &&
	    nonSimpleDomain(parsed.host)
	  ) {
	    let url;
	    try {
	      url = new URL('http://' + parsed.host);
	    } catch (e) {
	      parsed.error = parsed.error || "Host's domain name can not be converted to ASCII: " + e;
	      return true
	    }
	    // The WHATWG parser must have read the whole input as a host. Anything
	    // else means it found a delimiter fast-uri did not, so its hostname would
	    // describe a different authority.
	    if (!isHostOnlyURL(url)) {
	      parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	      return true
	    }
	    parsed.host = url.hostname;
	  }
	  return false
	}

	/**
	 * Whether a domain host contains an ASCII character that RFC 3986 does not
	 * allow in a reg-name (unreserved, sub-delims, or pct-encoded). Such a host is
	 * rejected instead of being handed to the WHATWG URL parser, which would treat
	 * "@" as a userinfo delimiter (silently dropping the data before it) and strip
	 * TAB, LF, and CR. Non-ASCII characters remain allowed for IDNs.
	 *
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {import('./types/index').Options} options
	 * @param {{ domainHost?: boolean }|undefined} schemeHandler
	 * @param {boolean} isIP
	 * @returns {boolean}
	 */
	function hasForbiddenDomainHost (parsed, options, schemeHandler, isIP) {
	  return Boolean(
	    parsed.host &&
	    isIP === false &&
	    !isIPLiteral(parsed.host) &&
	    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
	    FORBIDDEN_DOMAIN_HOST_CHARACTER.test(parsed.host)
	  )
	}

	/**
	 * @param {URL} url
	 * @returns {boolean}
	 */
	function isHostOnlyURL (url) {
	  return url.username === '' &&
	    url.password === '' &&
	    url.port === '' &&
	    url.pathname === '/' &&
	    url.search === '' &&
	    url.hash === '' &&
	    url.hostname !== ''
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {{ parsed: import('./types/index').URIComponent, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
	 */
	function parseWithStatus (uri, opts) {
	  const options = Object.assign({}, opts);
	  /** @type {import('./types/index').URIComponent} */
	  const parsed = {
	    scheme: undefined,
	    userinfo: undefined,
	    host: '',
	    port: undefined,
	    path: '',
	    query: undefined,
	    fragment: undefined
	  };

	  let malformedAuthorityOrPort = false;
	  let malformedPercentEncoding = false;
	  let malformedSchemeSpecific = false;
	  let malformedHost = false;
	  let malformedIPLiteral = false;
	  let malformedScheme = false;

	  let isIP = false;
	  if (options.reference === 'suffix') {
	    if (options.scheme) {
	      uri = options.scheme + ':' + uri;
	    } else {
	      uri = '//' + uri;
	    }
	  }

	  // A literal backslash (U+005C) is not a valid RFC 3986 URI character and is
	  // not an authority delimiter. Reject it in the authority rather than
	  // rewriting it: normalizing "\" -> "/" (WHATWG error recovery) could silently
	  // change the resource identified by an otherwise-invalid input, and lets "\"
	  // act as a host delimiter here while Node's native URL parses a different
	  // host (SSRF / redirect / origin-allowlist bypass). Percent-encoded %5C is
	  // untouched and remains valid encoded data.
	  const authorityMatch = uri.match(AUTHORITY_PREFIX);
	  if (authorityMatch !== null && authorityMatch[1].indexOf('\\') !== -1) {
	    parsed.error = 'URI authority must not contain a literal backslash.';
	    malformedAuthorityOrPort = true;
	  }

	  // Reject a malformed or whitespace-smuggled authority introducer. fast-uri
	  // only recognizes a literal "//"; anything else in the leading separator run
	  // (a backslash, or a "//" that appears only after removing the TAB/LF/CR that
	  // Node strips) means the authority fast-uri parses differs from the one Node's
	  // URL resolves. Reject rather than rewrite, mirroring the literal-backslash
	  // guard above. Percent-encoded forms (%5C, %09) are untouched, valid data.
	  const introducerMatch = uri.match(AUTHORITY_INTRODUCER_REGION);
	  if (introducerMatch !== null) {
	    const region = introducerMatch[1];
	    const normalizedRegion = region.replace(/[\t\n\r]/g, '');
	    // Two or more leading separators introduce an authority.
	    if (normalizedRegion.length >= 2) {
	      if (normalizedRegion.slice(0, 2) !== '//') {
	        parsed.error = parsed.error || 'URI authority must not contain a literal backslash.';
	        malformedAuthorityOrPort = true;
	      } else if (region.length !== normalizedRegion.length) {
	        parsed.error = parsed.error || 'URI authority introducer must not contain whitespace.';
	        malformedAuthorityOrPort = true;
	      }
	    }
	  }

	  const matches = uri.match(URI_PARSE);

	  if (matches) {
	    // store each component
	    parsed.scheme = matches[1];
	    parsed.userinfo = matches[3];
	    parsed.host = matches[4];
	    parsed.port = parseInt(matches[5], 10);
	    parsed.path = matches[6] || '';
	    parsed.query = matches[7];
	    parsed.fragment = matches[8];

	    if (parsed.scheme !== undefined) {
	      if (VALID_SCHEME.test(parsed.scheme)) {
	        parsed.scheme = parsed.scheme.toLowerCase();
	      } else {
	        parsed.error = parsed.error || MALFORMED_SCHEME_ERROR;
	        malformedScheme = true;
	      }
	    }

	    malformedPercentEncoding = hasMalformedComponentPercentEncoding(matches);
	    if (malformedPercentEncoding) {
	      parsed.error = parsed.error || 'URI contains malformed percent-encoding.';
	    }

	    // fix port number
	    if (isNaN(parsed.port)) {
	      parsed.port = matches[5];
	    }

	    const parseError = getParseError(parsed, matches);
	    if (parseError !== undefined) {
	      parsed.error = parsed.error || parseError;
	      malformedAuthorityOrPort = true;
	    }

	    if (parsed.host) {
	      const ipv4result = isIPv4(parsed.host);
	      if (ipv4result === false) {
	        const bracketedIPLiteral = isIPLiteral(parsed.host);
	        const hasIPLiteralBracket = parsed.host.indexOf('[') !== -1 || parsed.host.indexOf(']') !== -1;
	        const ipv6result = normalizeIPv6(parsed.host);
	        isIP = ipv6result.isIPV6 || ipv6result.isIPVFuture === true;
	        malformedIPLiteral = hasIPLiteralBracket && (!bracketedIPLiteral || ipv6result.error === true);
	        parsed.host = isIP ? ipv6result.host : ipv6result.host.toLowerCase();

	        if (malformedIPLiteral) {
	          parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	          malformedAuthorityOrPort = true;
	        }
	      } else {
	        isIP = true;
	      }
	    }
	    if (parsed.scheme === undefined && parsed.userinfo === undefined && parsed.host === undefined && parsed.port === undefined && parsed.query === undefined && !parsed.path) {
	      parsed.reference = 'same-document';
	    } else if (parsed.scheme === undefined) {
	      parsed.reference = 'relative';
	    } else if (parsed.fragment === undefined) {
	      parsed.reference = 'absolute';
	    } else {
	      parsed.reference = 'uri';
	    }

	    // check for reference errors
	    if (options.reference && options.reference !== 'suffix' && options.reference !== parsed.reference) {
	      parsed.error = parsed.error || 'URI is not a ' + options.reference + ' reference.';
	    }

	    // find scheme handler
	    const schemeHandler = getSchemeHandler(options.scheme || parsed.scheme);

	    // convert Unicode IDN -> ASCII IDN when the effective scheme uses domain hosts
	    if (!malformedIPLiteral) {
	      malformedHost = canonicalizeHost(parsed, options, schemeHandler, isIP);
	    }

	    if (uri.indexOf('%') !== -1 && parsed.host !== undefined && !malformedIPLiteral) {
	      let host = isIP ? parsed.host : normalizePercentEncoding(parsed.host, true);
	      if (!isIP) {
	        // Fold reg-name case after decoding unreserved octets. The second
	        // pass only restores uppercase hex in escapes that remain encoded.
	        host = normalizePercentEncoding(host.toLowerCase());
	      }
	      // Resolution parses both inputs with the internal `null` scheme before
	      // the effective scheme is known. Keep raw host delimiters for that step
	      // so resolve() can reject them for domain-host schemes; the resolved
	      // authority is encoded when it is serialized.
	      parsed.host = isIP || options.scheme !== 'null' ? reescapeHostDelimiters(host, isIP) : host;
	    }

	    if (!schemeHandler || (schemeHandler && !schemeHandler.skipNormalize)) {
	      if (parsed.path) {
	        parsed.path = normalizePathEncoding(parsed.path);
	      }
	      if (parsed.query) {
	        parsed.query = normalizeQueryFragmentEncoding(parsed.query);
	      }
	      if (parsed.fragment) {
	        parsed.fragment = normalizeQueryFragmentEncoding(parsed.fragment);
	      }
	    }

	    // perform scheme specific parsing
	    if (schemeHandler && schemeHandler.parse) {
	      schemeHandler.parse(parsed, options);
	      if (schemeHandler === SCHEMES.urn && parsed.nid === undefined) {
	        malformedSchemeSpecific = true;
	      }
	    }
	  } else {
	    parsed.error = parsed.error || 'URI can not be parsed.';
	  }
	  return { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme }
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns
	 */
	function parse (uri, opts) {
	  return parseWithStatus(uri, opts).parsed
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string}
	 */
	function normalizeString (uri, opts) {
	  return normalizeStringWithStatus(uri, opts).normalized
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {{ normalized: string, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
	 */
	function normalizeStringWithStatus (uri, opts) {
	  const { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = parseWithStatus(uri, opts);
	  return {
	    normalized: malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? uri : serialize(parsed, opts),
	    malformedAuthorityOrPort,
	    malformedPercentEncoding,
	    malformedSchemeSpecific,
	    malformedHost,
	    malformedScheme
	  }
	}

	/**
	 * @param {import ('./types/index').URIComponent|string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string|undefined}
	 */
	function normalizeComparableURI (uri, opts) {
	  if (typeof uri !== 'string' && typeof uri !== 'object') {
	    return undefined
	  }

	  let value;
	  try {
	    value = typeof uri === 'string' ? uri : serialize(uri, opts);
	  } catch {
	    return undefined
	  }
	  const { normalized, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = normalizeStringWithStatus(value, opts);
	  return malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? undefined : normalized
	}

	const fastUri$1 = {
	  SCHEMES,
	  normalize,
	  resolve,
	  resolveComponent,
	  equal,
	  serialize,
	  parse
	};

	fastUri.exports = fastUri$1;
	fastUri.exports.default = fastUri$1;
	fastUri.exports.fastUri = fastUri$1;
	return fastUri.exports;
}

var hasRequiredUri;

function requireUri () {
	if (hasRequiredUri) return uri;
	hasRequiredUri = 1;
	Object.defineProperty(uri, "__esModule", { value: true });
	const uri$1 = requireFastUri();
	uri$1.code = 'require("ajv/dist/runtime/uri").default';
	uri.default = uri$1;
	
	return uri;
}

var hasRequiredCore$1;

function requireCore$1 () {
	if (hasRequiredCore$1) return core$1;
	hasRequiredCore$1 = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = void 0;
		var validate_1 = /*@__PURE__*/ requireValidate();
		Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function () { return validate_1.KeywordCxt; } });
		var codegen_1 = /*@__PURE__*/ requireCodegen();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return codegen_1._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return codegen_1.str; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return codegen_1.stringify; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return codegen_1.nil; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return codegen_1.Name; } });
		Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function () { return codegen_1.CodeGen; } });
		const validation_error_1 = /*@__PURE__*/ requireValidation_error();
		const ref_error_1 = /*@__PURE__*/ requireRef_error();
		const rules_1 = /*@__PURE__*/ requireRules();
		const compile_1 = /*@__PURE__*/ requireCompile();
		const codegen_2 = /*@__PURE__*/ requireCodegen();
		const resolve_1 = /*@__PURE__*/ requireResolve();
		const dataType_1 = /*@__PURE__*/ requireDataType();
		const util_1 = /*@__PURE__*/ requireUtil();
		const $dataRefSchema = require$$9;
		const uri_1 = /*@__PURE__*/ requireUri();
		const defaultRegExp = (str, flags) => new RegExp(str, flags);
		defaultRegExp.code = "new RegExp";
		const META_IGNORE_OPTIONS = ["removeAdditional", "useDefaults", "coerceTypes"];
		const EXT_SCOPE_NAMES = new Set([
		    "validate",
		    "serialize",
		    "parse",
		    "wrapper",
		    "root",
		    "schema",
		    "keyword",
		    "pattern",
		    "formats",
		    "validate$data",
		    "func",
		    "obj",
		    "Error",
		]);
		const removedOptions = {
		    errorDataPath: "",
		    format: "`validateFormats: false` can be used instead.",
		    nullable: '"nullable" keyword is supported by default.',
		    jsonPointers: "Deprecated jsPropertySyntax can be used instead.",
		    extendRefs: "Deprecated ignoreKeywordsWithRef can be used instead.",
		    missingRefs: "Pass empty schema with $id that should be ignored to ajv.addSchema.",
		    processCode: "Use option `code: {process: (code, schemaEnv: object) => string}`",
		    sourceCode: "Use option `code: {source: true}`",
		    strictDefaults: "It is default now, see option `strict`.",
		    strictKeywords: "It is default now, see option `strict`.",
		    uniqueItems: '"uniqueItems" keyword is always validated.',
		    unknownFormats: "Disable strict mode or pass `true` to `ajv.addFormat` (or `formats` option).",
		    cache: "Map is used as cache, schema object as key.",
		    serialize: "Map is used as cache, schema object as key.",
		    ajvErrors: "It is default now.",
		};
		const deprecatedOptions = {
		    ignoreKeywordsWithRef: "",
		    jsPropertySyntax: "",
		    unicode: '"minLength"/"maxLength" account for unicode characters by default.',
		};
		const MAX_EXPRESSION = 200;
		// eslint-disable-next-line complexity
		function requiredOptions(o) {
		    var _a, _b, _c, _d, _e, _f, _g, _h, _j, _k, _l, _m, _o, _p, _q, _r, _s, _t, _u, _v, _w, _x, _y, _z, _0;
		    const s = o.strict;
		    const _optz = (_a = o.code) === null || _a === void 0 ? void 0 : _a.optimize;
		    const optimize = _optz === true || _optz === undefined ? 1 : _optz || 0;
		    const regExp = (_c = (_b = o.code) === null || _b === void 0 ? void 0 : _b.regExp) !== null && _c !== void 0 ? _c : defaultRegExp;
		    const uriResolver = (_d = o.uriResolver) !== null && _d !== void 0 ? _d : uri_1.default;
		    return {
		        strictSchema: (_f = (_e = o.strictSchema) !== null && _e !== void 0 ? _e : s) !== null && _f !== void 0 ? _f : true,
		        strictNumbers: (_h = (_g = o.strictNumbers) !== null && _g !== void 0 ? _g : s) !== null && _h !== void 0 ? _h : true,
		        strictTypes: (_k = (_j = o.strictTypes) !== null && _j !== void 0 ? _j : s) !== null && _k !== void 0 ? _k : "log",
		        strictTuples: (_m = (_l = o.strictTuples) !== null && _l !== void 0 ? _l : s) !== null && _m !== void 0 ? _m : "log",
		        strictRequired: (_p = (_o = o.strictRequired) !== null && _o !== void 0 ? _o : s) !== null && _p !== void 0 ? _p : false,
		        code: o.code ? { ...o.code, optimize, regExp } : { optimize, regExp },
		        loopRequired: (_q = o.loopRequired) !== null && _q !== void 0 ? _q : MAX_EXPRESSION,
		        loopEnum: (_r = o.loopEnum) !== null && _r !== void 0 ? _r : MAX_EXPRESSION,
		        meta: (_s = o.meta) !== null && _s !== void 0 ? _s : true,
		        messages: (_t = o.messages) !== null && _t !== void 0 ? _t : true,
		        inlineRefs: (_u = o.inlineRefs) !== null && _u !== void 0 ? _u : true,
		        schemaId: (_v = o.schemaId) !== null && _v !== void 0 ? _v : "$id",
		        addUsedSchema: (_w = o.addUsedSchema) !== null && _w !== void 0 ? _w : true,
		        validateSchema: (_x = o.validateSchema) !== null && _x !== void 0 ? _x : true,
		        validateFormats: (_y = o.validateFormats) !== null && _y !== void 0 ? _y : true,
		        unicodeRegExp: (_z = o.unicodeRegExp) !== null && _z !== void 0 ? _z : true,
		        int32range: (_0 = o.int32range) !== null && _0 !== void 0 ? _0 : true,
		        uriResolver: uriResolver,
		    };
		}
		class Ajv {
		    constructor(opts = {}) {
		        this.schemas = {};
		        this.refs = {};
		        this.formats = Object.create(null);
		        this._compilations = new Set();
		        this._loading = {};
		        this._cache = new Map();
		        opts = this.opts = { ...opts, ...requiredOptions(opts) };
		        const { es5, lines } = this.opts.code;
		        this.scope = new codegen_2.ValueScope({ scope: {}, prefixes: EXT_SCOPE_NAMES, es5, lines });
		        this.logger = getLogger(opts.logger);
		        const formatOpt = opts.validateFormats;
		        opts.validateFormats = false;
		        this.RULES = (0, rules_1.getRules)();
		        checkOptions.call(this, removedOptions, opts, "NOT SUPPORTED");
		        checkOptions.call(this, deprecatedOptions, opts, "DEPRECATED", "warn");
		        this._metaOpts = getMetaSchemaOptions.call(this);
		        if (opts.formats)
		            addInitialFormats.call(this);
		        this._addVocabularies();
		        this._addDefaultMetaSchema();
		        if (opts.keywords)
		            addInitialKeywords.call(this, opts.keywords);
		        if (typeof opts.meta == "object")
		            this.addMetaSchema(opts.meta);
		        addInitialSchemas.call(this);
		        opts.validateFormats = formatOpt;
		    }
		    _addVocabularies() {
		        this.addKeyword("$async");
		    }
		    _addDefaultMetaSchema() {
		        const { $data, meta, schemaId } = this.opts;
		        let _dataRefSchema = $dataRefSchema;
		        if (schemaId === "id") {
		            _dataRefSchema = { ...$dataRefSchema };
		            _dataRefSchema.id = _dataRefSchema.$id;
		            delete _dataRefSchema.$id;
		        }
		        if (meta && $data)
		            this.addMetaSchema(_dataRefSchema, _dataRefSchema[schemaId], false);
		    }
		    defaultMeta() {
		        const { meta, schemaId } = this.opts;
		        return (this.opts.defaultMeta = typeof meta == "object" ? meta[schemaId] || meta : undefined);
		    }
		    validate(schemaKeyRef, // key, ref or schema object
		    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
		    data // to be validated
		    ) {
		        let v;
		        if (typeof schemaKeyRef == "string") {
		            v = this.getSchema(schemaKeyRef);
		            if (!v)
		                throw new Error(`no schema with key or ref "${schemaKeyRef}"`);
		        }
		        else {
		            v = this.compile(schemaKeyRef);
		        }
		        const valid = v(data);
		        if (!("$async" in v))
		            this.errors = v.errors;
		        return valid;
		    }
		    compile(schema, _meta) {
		        const sch = this._addSchema(schema, _meta);
		        return (sch.validate || this._compileSchemaEnv(sch));
		    }
		    compileAsync(schema, meta) {
		        if (typeof this.opts.loadSchema != "function") {
		            throw new Error("options.loadSchema should be a function");
		        }
		        const { loadSchema } = this.opts;
		        return runCompileAsync.call(this, schema, meta);
		        async function runCompileAsync(_schema, _meta) {
		            await loadMetaSchema.call(this, _schema.$schema);
		            const sch = this._addSchema(_schema, _meta);
		            return sch.validate || _compileAsync.call(this, sch);
		        }
		        async function loadMetaSchema($ref) {
		            if ($ref && !this.getSchema($ref)) {
		                await runCompileAsync.call(this, { $ref }, true);
		            }
		        }
		        async function _compileAsync(sch) {
		            try {
		                return this._compileSchemaEnv(sch);
		            }
		            catch (e) {
		                if (!(e instanceof ref_error_1.default))
		                    throw e;
		                checkLoaded.call(this, e);
		                await loadMissingSchema.call(this, e.missingSchema);
		                return _compileAsync.call(this, sch);
		            }
		        }
		        function checkLoaded({ missingSchema: ref, missingRef }) {
		            if (this.refs[ref]) {
		                throw new Error(`AnySchema ${ref} is loaded but ${missingRef} cannot be resolved`);
		            }
		        }
		        async function loadMissingSchema(ref) {
		            const _schema = await _loadSchema.call(this, ref);
		            if (!this.refs[ref])
		                await loadMetaSchema.call(this, _schema.$schema);
		            if (!this.refs[ref])
		                this.addSchema(_schema, ref, meta);
		        }
		        async function _loadSchema(ref) {
		            const p = this._loading[ref];
		            if (p)
		                return p;
		            try {
		                return await (this._loading[ref] = loadSchema(ref));
		            }
		            finally {
		                delete this._loading[ref];
		            }
		        }
		    }
		    // Adds schema to the instance
		    addSchema(schema, // If array is passed, `key` will be ignored
		    key, // Optional schema key. Can be passed to `validate` method instead of schema object or id/ref. One schema per instance can have empty `id` and `key`.
		    _meta, // true if schema is a meta-schema. Used internally, addMetaSchema should be used instead.
		    _validateSchema = this.opts.validateSchema // false to skip schema validation. Used internally, option validateSchema should be used instead.
		    ) {
		        if (Array.isArray(schema)) {
		            for (const sch of schema)
		                this.addSchema(sch, undefined, _meta, _validateSchema);
		            return this;
		        }
		        let id;
		        if (typeof schema === "object") {
		            const { schemaId } = this.opts;
		            id = schema[schemaId];
		            if (id !== undefined && typeof id != "string") {
		                throw new Error(`schema ${schemaId} must be string`);
		            }
		        }
		        key = (0, resolve_1.normalizeId)(key || id);
		        this._checkUnique(key);
		        this.schemas[key] = this._addSchema(schema, _meta, key, _validateSchema, true);
		        return this;
		    }
		    // Add schema that will be used to validate other schemas
		    // options in META_IGNORE_OPTIONS are alway set to false
		    addMetaSchema(schema, key, // schema key
		    _validateSchema = this.opts.validateSchema // false to skip schema validation, can be used to override validateSchema option for meta-schema
		    ) {
		        this.addSchema(schema, key, true, _validateSchema);
		        return this;
		    }
		    //  Validate schema against its meta-schema
		    validateSchema(schema, throwOrLogError) {
		        if (typeof schema == "boolean")
		            return true;
		        let $schema;
		        $schema = schema.$schema;
		        if ($schema !== undefined && typeof $schema != "string") {
		            throw new Error("$schema must be a string");
		        }
		        $schema = $schema || this.opts.defaultMeta || this.defaultMeta();
		        if (!$schema) {
		            this.logger.warn("meta-schema not available");
		            this.errors = null;
		            return true;
		        }
		        const valid = this.validate($schema, schema);
		        if (!valid && throwOrLogError) {
		            const message = "schema is invalid: " + this.errorsText();
		            if (this.opts.validateSchema === "log")
		                this.logger.error(message);
		            else
		                throw new Error(message);
		        }
		        return valid;
		    }
		    // Get compiled schema by `key` or `ref`.
		    // (`key` that was passed to `addSchema` or full schema reference - `schema.$id` or resolved id)
		    getSchema(keyRef) {
		        let sch;
		        while (typeof (sch = getSchEnv.call(this, keyRef)) == "string")
		            keyRef = sch;
		        if (sch === undefined) {
		            const { schemaId } = this.opts;
		            const root = new compile_1.SchemaEnv({ schema: {}, schemaId });
		            sch = compile_1.resolveSchema.call(this, root, keyRef);
		            if (!sch)
		                return;
		            this.refs[keyRef] = sch;
		        }
		        return (sch.validate || this._compileSchemaEnv(sch));
		    }
		    // Remove cached schema(s).
		    // If no parameter is passed all schemas but meta-schemas are removed.
		    // If RegExp is passed all schemas with key/id matching pattern but meta-schemas are removed.
		    // Even if schema is referenced by other schemas it still can be removed as other schemas have local references.
		    removeSchema(schemaKeyRef) {
		        if (schemaKeyRef instanceof RegExp) {
		            this._removeAllSchemas(this.schemas, schemaKeyRef);
		            this._removeAllSchemas(this.refs, schemaKeyRef);
		            return this;
		        }
		        switch (typeof schemaKeyRef) {
		            case "undefined":
		                this._removeAllSchemas(this.schemas);
		                this._removeAllSchemas(this.refs);
		                this._cache.clear();
		                return this;
		            case "string": {
		                const sch = getSchEnv.call(this, schemaKeyRef);
		                if (typeof sch == "object")
		                    this._cache.delete(sch.schema);
		                delete this.schemas[schemaKeyRef];
		                delete this.refs[schemaKeyRef];
		                return this;
		            }
		            case "object": {
		                const cacheKey = schemaKeyRef;
		                this._cache.delete(cacheKey);
		                let id = schemaKeyRef[this.opts.schemaId];
		                if (id) {
		                    id = (0, resolve_1.normalizeId)(id);
		                    delete this.schemas[id];
		                    delete this.refs[id];
		                }
		                return this;
		            }
		            default:
		                throw new Error("ajv.removeSchema: invalid parameter");
		        }
		    }
		    // add "vocabulary" - a collection of keywords
		    addVocabulary(definitions) {
		        for (const def of definitions)
		            this.addKeyword(def);
		        return this;
		    }
		    addKeyword(kwdOrDef, def // deprecated
		    ) {
		        let keyword;
		        if (typeof kwdOrDef == "string") {
		            keyword = kwdOrDef;
		            if (typeof def == "object") {
		                this.logger.warn("these parameters are deprecated, see docs for addKeyword");
		                def.keyword = keyword;
		            }
		        }
		        else if (typeof kwdOrDef == "object" && def === undefined) {
		            def = kwdOrDef;
		            keyword = def.keyword;
		            if (Array.isArray(keyword) && !keyword.length) {
		                throw new Error("addKeywords: keyword must be string or non-empty array");
		            }
		        }
		        else {
		            throw new Error("invalid addKeywords parameters");
		        }
		        checkKeyword.call(this, keyword, def);
		        if (!def) {
		            (0, util_1.eachItem)(keyword, (kwd) => addRule.call(this, kwd));
		            return this;
		        }
		        keywordMetaschema.call(this, def);
		        const definition = {
		            ...def,
		            type: (0, dataType_1.getJSONTypes)(def.type),
		            schemaType: (0, dataType_1.getJSONTypes)(def.schemaType),
		        };
		        (0, util_1.eachItem)(keyword, definition.type.length === 0
		            ? (k) => addRule.call(this, k, definition)
		            : (k) => definition.type.forEach((t) => addRule.call(this, k, definition, t)));
		        return this;
		    }
		    getKeyword(keyword) {
		        const rule = this.RULES.all[keyword];
		        return typeof rule == "object" ? rule.definition : !!rule;
		    }
		    // Remove keyword
		    removeKeyword(keyword) {
		        // TODO return type should be Ajv
		        const { RULES } = this;
		        delete RULES.keywords[keyword];
		        delete RULES.all[keyword];
		        for (const group of RULES.rules) {
		            const i = group.rules.findIndex((rule) => rule.keyword === keyword);
		            if (i >= 0)
		                group.rules.splice(i, 1);
		        }
		        return this;
		    }
		    // Add format
		    addFormat(name, format) {
		        if (typeof format == "string")
		            format = new RegExp(format);
		        this.formats[name] = format;
		        return this;
		    }
		    errorsText(errors = this.errors, // optional array of validation errors
		    { separator = ", ", dataVar = "data" } = {} // optional options with properties `separator` and `dataVar`
		    ) {
		        if (!errors || errors.length === 0)
		            return "No errors";
		        return errors
		            .map((e) => `${dataVar}${e.instancePath} ${e.message}`)
		            .reduce((text, msg) => text + separator + msg);
		    }
		    $dataMetaSchema(metaSchema, keywordsJsonPointers) {
		        const rules = this.RULES.all;
		        metaSchema = JSON.parse(JSON.stringify(metaSchema));
		        for (const jsonPointer of keywordsJsonPointers) {
		            const segments = jsonPointer.split("/").slice(1); // first segment is an empty string
		            let keywords = metaSchema;
		            for (const seg of segments)
		                keywords = keywords[seg];
		            for (const key in rules) {
		                const rule = rules[key];
		                if (typeof rule != "object")
		                    continue;
		                const { $data } = rule.definition;
		                const schema = keywords[key];
		                if ($data && schema)
		                    keywords[key] = schemaOrData(schema);
		            }
		        }
		        return metaSchema;
		    }
		    _removeAllSchemas(schemas, regex) {
		        for (const keyRef in schemas) {
		            const sch = schemas[keyRef];
		            if (!regex || regex.test(keyRef)) {
		                if (typeof sch == "string") {
		                    delete schemas[keyRef];
		                }
		                else if (sch && !sch.meta) {
		                    this._cache.delete(sch.schema);
		                    delete schemas[keyRef];
		                }
		            }
		        }
		    }
		    _addSchema(schema, meta, baseId, validateSchema = this.opts.validateSchema, addSchema = this.opts.addUsedSchema) {
		        let id;
		        const { schemaId } = this.opts;
		        if (typeof schema == "object") {
		            id = schema[schemaId];
		        }
		        else {
		            if (this.opts.jtd)
		                throw new Error("schema must be object");
		            else if (typeof schema != "boolean")
		                throw new Error("schema must be object or boolean");
		        }
		        let sch = this._cache.get(schema);
		        if (sch !== undefined)
		            return sch;
		        baseId = (0, resolve_1.normalizeId)(id || baseId);
		        const localRefs = resolve_1.getSchemaRefs.call(this, schema, baseId);
		        sch = new compile_1.SchemaEnv({ schema, schemaId, meta, baseId, localRefs });
		        this._cache.set(sch.schema, sch);
		        if (addSchema && !baseId.startsWith("#")) {
		            // TODO atm it is allowed to overwrite schemas without id (instead of not adding them)
		            if (baseId)
		                this._checkUnique(baseId);
		            this.refs[baseId] = sch;
		        }
		        if (validateSchema)
		            this.validateSchema(schema, true);
		        return sch;
		    }
		    _checkUnique(id) {
		        if (this.schemas[id] || this.refs[id]) {
		            throw new Error(`schema with key or id "${id}" already exists`);
		        }
		    }
		    _compileSchemaEnv(sch) {
		        if (sch.meta)
		            this._compileMetaSchema(sch);
		        else
		            compile_1.compileSchema.call(this, sch);
		        /* istanbul ignore if */
		        if (!sch.validate)
		            throw new Error("ajv implementation error");
		        return sch.validate;
		    }
		    _compileMetaSchema(sch) {
		        const currentOpts = this.opts;
		        this.opts = this._metaOpts;
		        try {
		            compile_1.compileSchema.call(this, sch);
		        }
		        finally {
		            this.opts = currentOpts;
		        }
		    }
		}
		Ajv.ValidationError = validation_error_1.default;
		Ajv.MissingRefError = ref_error_1.default;
		exports.default = Ajv;
		function checkOptions(checkOpts, options, msg, log = "error") {
		    for (const key in checkOpts) {
		        const opt = key;
		        if (opt in options)
		            this.logger[log](`${msg}: option ${key}. ${checkOpts[opt]}`);
		    }
		}
		function getSchEnv(keyRef) {
		    keyRef = (0, resolve_1.normalizeId)(keyRef); // TODO tests fail without this line
		    return this.schemas[keyRef] || this.refs[keyRef];
		}
		function addInitialSchemas() {
		    const optsSchemas = this.opts.schemas;
		    if (!optsSchemas)
		        return;
		    if (Array.isArray(optsSchemas))
		        this.addSchema(optsSchemas);
		    else
		        for (const key in optsSchemas)
		            this.addSchema(optsSchemas[key], key);
		}
		function addInitialFormats() {
		    for (const name in this.opts.formats) {
		        const format = this.opts.formats[name];
		        if (format)
		            this.addFormat(name, format);
		    }
		}
		function addInitialKeywords(defs) {
		    if (Array.isArray(defs)) {
		        this.addVocabulary(defs);
		        return;
		    }
		    this.logger.warn("keywords option as map is deprecated, pass array");
		    for (const keyword in defs) {
		        const def = defs[keyword];
		        if (!def.keyword)
		            def.keyword = keyword;
		        this.addKeyword(def);
		    }
		}
		function getMetaSchemaOptions() {
		    const metaOpts = { ...this.opts };
		    for (const opt of META_IGNORE_OPTIONS)
		        delete metaOpts[opt];
		    return metaOpts;
		}
		const noLogs = { log() { }, warn() { }, error() { } };
		function getLogger(logger) {
		    if (logger === false)
		        return noLogs;
		    if (logger === undefined)
		        return console;
		    if (logger.log && logger.warn && logger.error)
		        return logger;
		    throw new Error("logger must implement log, warn and error methods");
		}
		const KEYWORD_NAME = /^[a-z_$][a-z0-9_$:-]*$/i;
		function checkKeyword(keyword, def) {
		    const { RULES } = this;
		    (0, util_1.eachItem)(keyword, (kwd) => {
		        if (RULES.keywords[kwd])
		            throw new Error(`Keyword ${kwd} is already defined`);
		        if (!KEYWORD_NAME.test(kwd))
		            throw new Error(`Keyword ${kwd} has invalid name`);
		    });
		    if (!def)
		        return;
		    if (def.$data && !("code" in def || "validate" in def)) {
		        throw new Error('$data keyword must have "code" or "validate" function');
		    }
		}
		function addRule(keyword, definition, dataType) {
		    var _a;
		    const post = definition === null || definition === void 0 ? void 0 : definition.post;
		    if (dataType && post)
		        throw new Error('keyword with "post" flag cannot have "type"');
		    const { RULES } = this;
		    let ruleGroup = post ? RULES.post : RULES.rules.find(({ type: t }) => t === dataType);
		    if (!ruleGroup) {
		        ruleGroup = { type: dataType, rules: [] };
		        RULES.rules.push(ruleGroup);
		    }
		    RULES.keywords[keyword] = true;
		    if (!definition)
		        return;
		    const rule = {
		        keyword,
		        definition: {
		            ...definition,
		            type: (0, dataType_1.getJSONTypes)(definition.type),
		            schemaType: (0, dataType_1.getJSONTypes)(definition.schemaType),
		        },
		    };
		    if (definition.before)
		        addBeforeRule.call(this, ruleGroup, rule, definition.before);
		    else
		        ruleGroup.rules.push(rule);
		    RULES.all[keyword] = rule;
		    (_a = definition.implements) === null || _a === void 0 ? void 0 : _a.forEach((kwd) => this.addKeyword(kwd));
		}
		function addBeforeRule(ruleGroup, rule, before) {
		    const i = ruleGroup.rules.findIndex((_rule) => _rule.keyword === before);
		    if (i >= 0) {
		        ruleGroup.rules.splice(i, 0, rule);
		    }
		    else {
		        ruleGroup.rules.push(rule);
		        this.logger.warn(`rule ${before} is not defined`);
		    }
		}
		function keywordMetaschema(def) {
		    let { metaSchema } = def;
		    if (metaSchema === undefined)
		        return;
		    if (def.$data && this.opts.$data)
		        metaSchema = schemaOrData(metaSchema);
		    def.validateSchema = this.compile(metaSchema, true);
		}
		const $dataRef = {
		    $ref: "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#",
		};
		function schemaOrData(schema) {
		    return { anyOf: [schema, $dataRef] };
		}
		
	} (core$1));
	return core$1;
}

var draft7 = {};

var core = {};

var id = {};

var hasRequiredId;

function requireId () {
	if (hasRequiredId) return id;
	hasRequiredId = 1;
	Object.defineProperty(id, "__esModule", { value: true });
	const def = {
	    keyword: "id",
	    code() {
	        throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
	    },
	};
	id.default = def;
	
	return id;
}

var ref = {};

var hasRequiredRef;

function requireRef () {
	if (hasRequiredRef) return ref;
	hasRequiredRef = 1;
	Object.defineProperty(ref, "__esModule", { value: true });
	ref.callRef = ref.getValidate = void 0;
	const ref_error_1 = /*@__PURE__*/ requireRef_error();
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const compile_1 = /*@__PURE__*/ requireCompile();
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "$ref",
	    schemaType: "string",
	    code(cxt) {
	        const { gen, schema: $ref, it } = cxt;
	        const { baseId, schemaEnv: env, validateName, opts, self } = it;
	        const { root } = env;
	        if (($ref === "#" || $ref === "#/") && baseId === root.baseId)
	            return callRootRef();
	        const schOrEnv = compile_1.resolveRef.call(self, root, baseId, $ref);
	        if (schOrEnv === undefined)
	            throw new ref_error_1.default(it.opts.uriResolver, baseId, $ref);
	        if (schOrEnv instanceof compile_1.SchemaEnv)
	            return callValidate(schOrEnv);
	        return inlineRefSchema(schOrEnv);
	        function callRootRef() {
	            if (env === root)
	                return callRef(cxt, validateName, env, env.$async);
	            const rootName = gen.scopeValue("root", { ref: root });
	            return callRef(cxt, (0, codegen_1._) `${rootName}.validate`, root, root.$async);
	        }
	        function callValidate(sch) {
	            const v = getValidate(cxt, sch);
	            callRef(cxt, v, sch, sch.$async);
	        }
	        function inlineRefSchema(sch) {
	            const schName = gen.scopeValue("schema", opts.code.source === true ? { ref: sch, code: (0, codegen_1.stringify)(sch) } : { ref: sch });
	            const valid = gen.name("valid");
	            const schCxt = cxt.subschema({
	                schema: sch,
	                dataTypes: [],
	                schemaPath: codegen_1.nil,
	                topSchemaRef: schName,
	                errSchemaPath: $ref,
	            }, valid);
	            cxt.mergeEvaluated(schCxt);
	            cxt.ok(valid);
	        }
	    },
	};
	function getValidate(cxt, sch) {
	    const { gen } = cxt;
	    return sch.validate
	        ? gen.scopeValue("validate", { ref: sch.validate })
	        : (0, codegen_1._) `${gen.scopeValue("wrapper", { ref: sch })}.validate`;
	}
	ref.getValidate = getValidate;
	function callRef(cxt, v, sch, $async) {
	    const { gen, it } = cxt;
	    const { allErrors, schemaEnv: env, opts } = it;
	    const passCxt = opts.passContext ? names_1.default.this : codegen_1.nil;
	    if ($async)
	        callAsyncRef();
	    else
	        callSyncRef();
	    function callAsyncRef() {
	        if (!env.$async)
	            throw new Error("async schema referenced by sync schema");
	        const valid = gen.let("valid");
	        gen.try(() => {
	            gen.code((0, codegen_1._) `await ${(0, code_1.callValidateCode)(cxt, v, passCxt)}`);
	            addEvaluatedFrom(v); // TODO will not work with async, it has to be returned with the result
	            if (!allErrors)
	                gen.assign(valid, true);
	        }, (e) => {
	            gen.if((0, codegen_1._) `!(${e} instanceof ${it.ValidationError})`, () => gen.throw(e));
	            addErrorsFrom(e);
	            if (!allErrors)
	                gen.assign(valid, false);
	        });
	        cxt.ok(valid);
	    }
	    function callSyncRef() {
	        cxt.result((0, code_1.callValidateCode)(cxt, v, passCxt), () => addEvaluatedFrom(v), () => addErrorsFrom(v));
	    }
	    function addErrorsFrom(source) {
	        const errs = (0, codegen_1._) `${source}.errors`;
	        gen.assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`); // TODO tagged
	        gen.assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
	    }
	    function addEvaluatedFrom(source) {
	        var _a;
	        if (!it.opts.unevaluated)
	            return;
	        const schEvaluated = (_a = sch === null || sch === void 0 ? void 0 : sch.validate) === null || _a === void 0 ? void 0 : _a.evaluated;
	        // TODO refactor
	        if (it.props !== true) {
	            if (schEvaluated && !schEvaluated.dynamicProps) {
	                if (schEvaluated.props !== undefined) {
	                    it.props = util_1.mergeEvaluated.props(gen, schEvaluated.props, it.props);
	                }
	            }
	            else {
	                const props = gen.var("props", (0, codegen_1._) `${source}.evaluated.props`);
	                it.props = util_1.mergeEvaluated.props(gen, props, it.props, codegen_1.Name);
	            }
	        }
	        if (it.items !== true) {
	            if (schEvaluated && !schEvaluated.dynamicItems) {
	                if (schEvaluated.items !== undefined) {
	                    it.items = util_1.mergeEvaluated.items(gen, schEvaluated.items, it.items);
	                }
	            }
	            else {
	                const items = gen.var("items", (0, codegen_1._) `${source}.evaluated.items`);
	                it.items = util_1.mergeEvaluated.items(gen, items, it.items, codegen_1.Name);
	            }
	        }
	    }
	}
	ref.callRef = callRef;
	ref.default = def;
	
	return ref;
}

var hasRequiredCore;

function requireCore () {
	if (hasRequiredCore) return core;
	hasRequiredCore = 1;
	Object.defineProperty(core, "__esModule", { value: true });
	const id_1 = /*@__PURE__*/ requireId();
	const ref_1 = /*@__PURE__*/ requireRef();
	const core$1 = [
	    "$schema",
	    "$id",
	    "$defs",
	    "$vocabulary",
	    { keyword: "$comment" },
	    "definitions",
	    id_1.default,
	    ref_1.default,
	];
	core.default = core$1;
	
	return core;
}

var validation = {};

var limitNumber = {};

var hasRequiredLimitNumber;

function requireLimitNumber () {
	if (hasRequiredLimitNumber) return limitNumber;
	hasRequiredLimitNumber = 1;
	Object.defineProperty(limitNumber, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const ops = codegen_1.operators;
	const KWDs = {
	    maximum: { okStr: "<=", ok: ops.LTE, fail: ops.GT },
	    minimum: { okStr: ">=", ok: ops.GTE, fail: ops.LT },
	    exclusiveMaximum: { okStr: "<", ok: ops.LT, fail: ops.GTE },
	    exclusiveMinimum: { okStr: ">", ok: ops.GT, fail: ops.LTE },
	};
	const error = {
	    message: ({ keyword, schemaCode }) => (0, codegen_1.str) `must be ${KWDs[keyword].okStr} ${schemaCode}`,
	    params: ({ keyword, schemaCode }) => (0, codegen_1._) `{comparison: ${KWDs[keyword].okStr}, limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: Object.keys(KWDs),
	    type: "number",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        cxt.fail$data((0, codegen_1._) `${data} ${KWDs[keyword].fail} ${schemaCode} || isNaN(${data})`);
	    },
	};
	limitNumber.default = def;
	
	return limitNumber;
}

var multipleOf = {};

var hasRequiredMultipleOf;

function requireMultipleOf () {
	if (hasRequiredMultipleOf) return multipleOf;
	hasRequiredMultipleOf = 1;
	Object.defineProperty(multipleOf, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must be multiple of ${schemaCode}`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{multipleOf: ${schemaCode}}`,
	};
	const def = {
	    keyword: "multipleOf",
	    type: "number",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, schemaCode, it } = cxt;
	        // const bdt = bad$DataType(schemaCode, <string>def.schemaType, $data)
	        const prec = it.opts.multipleOfPrecision;
	        const res = gen.let("res");
	        const invalid = prec
	            ? (0, codegen_1._) `Math.abs(Math.round(${res}) - ${res}) > 1e-${prec}`
	            : (0, codegen_1._) `${res} !== parseInt(${res})`;
	        cxt.fail$data((0, codegen_1._) `(${schemaCode} === 0 || (${res} = ${data}/${schemaCode}, ${invalid}))`);
	    },
	};
	multipleOf.default = def;
	
	return multipleOf;
}

var limitLength = {};

var ucs2length = {};

var hasRequiredUcs2length;

function requireUcs2length () {
	if (hasRequiredUcs2length) return ucs2length;
	hasRequiredUcs2length = 1;
	Object.defineProperty(ucs2length, "__esModule", { value: true });
	// https://mathiasbynens.be/notes/javascript-encoding
	// https://github.com/bestiejs/punycode.js - punycode.ucs2.decode
	function ucs2length$1(str) {
	    const len = str.length;
	    let length = 0;
	    let pos = 0;
	    let value;
	    while (pos < len) {
	        length++;
	        value = str.charCodeAt(pos++);
	        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
	            // high surrogate, and there is a next character
	            value = str.charCodeAt(pos);
	            if ((value & 0xfc00) === 0xdc00)
	                pos++; // low surrogate
	        }
	    }
	    return length;
	}
	ucs2length.default = ucs2length$1;
	ucs2length$1.code = 'require("ajv/dist/runtime/ucs2length").default';
	
	return ucs2length;
}

var hasRequiredLimitLength;

function requireLimitLength () {
	if (hasRequiredLimitLength) return limitLength;
	hasRequiredLimitLength = 1;
	Object.defineProperty(limitLength, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const ucs2length_1 = /*@__PURE__*/ requireUcs2length();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxLength" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} characters`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxLength", "minLength"],
	    type: "string",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode, it } = cxt;
	        const op = keyword === "maxLength" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        const len = it.opts.unicode === false ? (0, codegen_1._) `${data}.length` : (0, codegen_1._) `${(0, util_1.useFunc)(cxt.gen, ucs2length_1.default)}(${data})`;
	        cxt.fail$data((0, codegen_1._) `${len} ${op} ${schemaCode}`);
	    },
	};
	limitLength.default = def;
	
	return limitLength;
}

var pattern = {};

var hasRequiredPattern;

function requirePattern () {
	if (hasRequiredPattern) return pattern;
	hasRequiredPattern = 1;
	Object.defineProperty(pattern, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const util_1 = /*@__PURE__*/ requireUtil();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must match pattern "${schemaCode}"`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{pattern: ${schemaCode}}`,
	};
	const def = {
	    keyword: "pattern",
	    type: "string",
	    schemaType: "string",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        const u = it.opts.unicodeRegExp ? "u" : "";
	        if ($data) {
	            const { regExp } = it.opts.code;
	            const regExpCode = regExp.code === "new RegExp" ? (0, codegen_1._) `new RegExp` : (0, util_1.useFunc)(gen, regExp);
	            const valid = gen.let("valid");
	            gen.try(() => gen.assign(valid, (0, codegen_1._) `${regExpCode}(${schemaCode}, ${u}).test(${data})`), () => gen.assign(valid, false));
	            cxt.fail$data((0, codegen_1._) `!${valid}`);
	        }
	        else {
	            const regExp = (0, code_1.usePattern)(cxt, schema);
	            cxt.fail$data((0, codegen_1._) `!${regExp}.test(${data})`);
	        }
	    },
	};
	pattern.default = def;
	
	return pattern;
}

var limitProperties = {};

var hasRequiredLimitProperties;

function requireLimitProperties () {
	if (hasRequiredLimitProperties) return limitProperties;
	hasRequiredLimitProperties = 1;
	Object.defineProperty(limitProperties, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxProperties" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} properties`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxProperties", "minProperties"],
	    type: "object",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        const op = keyword === "maxProperties" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        cxt.fail$data((0, codegen_1._) `Object.keys(${data}).length ${op} ${schemaCode}`);
	    },
	};
	limitProperties.default = def;
	
	return limitProperties;
}

var required = {};

var hasRequiredRequired;

function requireRequired () {
	if (hasRequiredRequired) return required;
	hasRequiredRequired = 1;
	Object.defineProperty(required, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { missingProperty } }) => (0, codegen_1.str) `must have required property '${missingProperty}'`,
	    params: ({ params: { missingProperty } }) => (0, codegen_1._) `{missingProperty: ${missingProperty}}`,
	};
	const def = {
	    keyword: "required",
	    type: "object",
	    schemaType: "array",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, schema, schemaCode, data, $data, it } = cxt;
	        const { opts } = it;
	        if (!$data && schema.length === 0)
	            return;
	        const useLoop = schema.length >= opts.loopRequired;
	        if (it.allErrors)
	            allErrorsMode();
	        else
	            exitOnErrorMode();
	        if (opts.strictRequired) {
	            const props = cxt.parentSchema.properties;
	            const { definedProperties } = cxt.it;
	            for (const requiredKey of schema) {
	                if ((props === null || props === void 0 ? void 0 : props[requiredKey]) === undefined && !definedProperties.has(requiredKey)) {
	                    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
	                    const msg = `required property "${requiredKey}" is not defined at "${schemaPath}" (strictRequired)`;
	                    (0, util_1.checkStrictMode)(it, msg, it.opts.strictRequired);
	                }
	            }
	        }
	        function allErrorsMode() {
	            if (useLoop || $data) {
	                cxt.block$data(codegen_1.nil, loopAllRequired);
	            }
	            else {
	                for (const prop of schema) {
	                    (0, code_1.checkReportMissingProp)(cxt, prop);
	                }
	            }
	        }
	        function exitOnErrorMode() {
	            const missing = gen.let("missing");
	            if (useLoop || $data) {
	                const valid = gen.let("valid", true);
	                cxt.block$data(valid, () => loopUntilMissing(missing, valid));
	                cxt.ok(valid);
	            }
	            else {
	                gen.if((0, code_1.checkMissingProp)(cxt, schema, missing));
	                (0, code_1.reportMissingProp)(cxt, missing);
	                gen.else();
	            }
	        }
	        function loopAllRequired() {
	            gen.forOf("prop", schemaCode, (prop) => {
	                cxt.setParams({ missingProperty: prop });
	                gen.if((0, code_1.noPropertyInData)(gen, data, prop, opts.ownProperties), () => cxt.error());
	            });
	        }
	        function loopUntilMissing(missing, valid) {
	            cxt.setParams({ missingProperty: missing });
	            gen.forOf(missing, schemaCode, () => {
	                gen.assign(valid, (0, code_1.propertyInData)(gen, data, missing, opts.ownProperties));
	                gen.if((0, codegen_1.not)(valid), () => {
	                    cxt.error();
	                    gen.break();
	                });
	            }, codegen_1.nil);
	        }
	    },
	};
	required.default = def;
	
	return required;
}

var limitItems = {};

var hasRequiredLimitItems;

function requireLimitItems () {
	if (hasRequiredLimitItems) return limitItems;
	hasRequiredLimitItems = 1;
	Object.defineProperty(limitItems, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxItems" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} items`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxItems", "minItems"],
	    type: "array",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        const op = keyword === "maxItems" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        cxt.fail$data((0, codegen_1._) `${data}.length ${op} ${schemaCode}`);
	    },
	};
	limitItems.default = def;
	
	return limitItems;
}

var uniqueItems = {};

var equal = {};

var hasRequiredEqual;

function requireEqual () {
	if (hasRequiredEqual) return equal;
	hasRequiredEqual = 1;
	Object.defineProperty(equal, "__esModule", { value: true });
	// https://github.com/ajv-validator/ajv/issues/889
	const equal$1 = requireFastDeepEqual();
	equal$1.code = 'require("ajv/dist/runtime/equal").default';
	equal.default = equal$1;
	
	return equal;
}

var hasRequiredUniqueItems;

function requireUniqueItems () {
	if (hasRequiredUniqueItems) return uniqueItems;
	hasRequiredUniqueItems = 1;
	Object.defineProperty(uniqueItems, "__esModule", { value: true });
	const dataType_1 = /*@__PURE__*/ requireDataType();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: ({ params: { i, j } }) => (0, codegen_1.str) `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
	    params: ({ params: { i, j } }) => (0, codegen_1._) `{i: ${i}, j: ${j}}`,
	};
	const def = {
	    keyword: "uniqueItems",
	    type: "array",
	    schemaType: "boolean",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, parentSchema, schemaCode, it } = cxt;
	        if (!$data && !schema)
	            return;
	        const valid = gen.let("valid");
	        const itemTypes = parentSchema.items ? (0, dataType_1.getSchemaTypes)(parentSchema.items) : [];
	        cxt.block$data(valid, validateUniqueItems, (0, codegen_1._) `${schemaCode} === false`);
	        cxt.ok(valid);
	        function validateUniqueItems() {
	            const i = gen.let("i", (0, codegen_1._) `${data}.length`);
	            const j = gen.let("j");
	            cxt.setParams({ i, j });
	            gen.assign(valid, true);
	            gen.if((0, codegen_1._) `${i} > 1`, () => (canOptimize() ? loopN : loopN2)(i, j));
	        }
	        function canOptimize() {
	            return itemTypes.length > 0 && !itemTypes.some((t) => t === "object" || t === "array");
	        }
	        function loopN(i, j) {
	            const item = gen.name("item");
	            const wrongType = (0, dataType_1.checkDataTypes)(itemTypes, item, it.opts.strictNumbers, dataType_1.DataType.Wrong);
	            const indices = gen.const("indices", (0, codegen_1._) `{}`);
	            gen.for((0, codegen_1._) `;${i}--;`, () => {
	                gen.let(item, (0, codegen_1._) `${data}[${i}]`);
	                gen.if(wrongType, (0, codegen_1._) `continue`);
	                if (itemTypes.length > 1)
	                    gen.if((0, codegen_1._) `typeof ${item} == "string"`, (0, codegen_1._) `${item} += "_"`);
	                gen
	                    .if((0, codegen_1._) `typeof ${indices}[${item}] == "number"`, () => {
	                    gen.assign(j, (0, codegen_1._) `${indices}[${item}]`);
	                    cxt.error();
	                    gen.assign(valid, false).break();
	                })
	                    .code((0, codegen_1._) `${indices}[${item}] = ${i}`);
	            });
	        }
	        function loopN2(i, j) {
	            const eql = (0, util_1.useFunc)(gen, equal_1.default);
	            const outer = gen.name("outer");
	            gen.label(outer).for((0, codegen_1._) `;${i}--;`, () => gen.for((0, codegen_1._) `${j} = ${i}; ${j}--;`, () => gen.if((0, codegen_1._) `${eql}(${data}[${i}], ${data}[${j}])`, () => {
	                cxt.error();
	                gen.assign(valid, false).break(outer);
	            })));
	        }
	    },
	};
	uniqueItems.default = def;
	
	return uniqueItems;
}

var _const = {};

var hasRequired_const;

function require_const () {
	if (hasRequired_const) return _const;
	hasRequired_const = 1;
	Object.defineProperty(_const, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: "must be equal to constant",
	    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValue: ${schemaCode}}`,
	};
	const def = {
	    keyword: "const",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schemaCode, schema } = cxt;
	        if ($data || (schema && typeof schema == "object")) {
	            cxt.fail$data((0, codegen_1._) `!${(0, util_1.useFunc)(gen, equal_1.default)}(${data}, ${schemaCode})`);
	        }
	        else {
	            cxt.fail((0, codegen_1._) `${schema} !== ${data}`);
	        }
	    },
	};
	_const.default = def;
	
	return _const;
}

var _enum = {};

var hasRequired_enum;

function require_enum () {
	if (hasRequired_enum) return _enum;
	hasRequired_enum = 1;
	Object.defineProperty(_enum, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: "must be equal to one of the allowed values",
	    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValues: ${schemaCode}}`,
	};
	const def = {
	    keyword: "enum",
	    schemaType: "array",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        if (!$data && schema.length === 0)
	            throw new Error("enum must have non-empty array");
	        const useLoop = schema.length >= it.opts.loopEnum;
	        let eql;
	        const getEql = () => (eql !== null && eql !== void 0 ? eql : (eql = (0, util_1.useFunc)(gen, equal_1.default)));
	        let valid;
	        if (useLoop || $data) {
	            valid = gen.let("valid");
	            cxt.block$data(valid, loopEnum);
	        }
	        else {
	            /* istanbul ignore if */
	            if (!Array.isArray(schema))
	                throw new Error("ajv implementation error");
	            const vSchema = gen.const("vSchema", schemaCode);
	            valid = (0, codegen_1.or)(...schema.map((_x, i) => equalCode(vSchema, i)));
	        }
	        cxt.pass(valid);
	        function loopEnum() {
	            gen.assign(valid, false);
	            gen.forOf("v", schemaCode, (v) => gen.if((0, codegen_1._) `${getEql()}(${data}, ${v})`, () => gen.assign(valid, true).break()));
	        }
	        function equalCode(vSchema, i) {
	            const sch = schema[i];
	            return typeof sch === "object" && sch !== null
	                ? (0, codegen_1._) `${getEql()}(${data}, ${vSchema}[${i}])`
	                : (0, codegen_1._) `${data} === ${sch}`;
	        }
	    },
	};
	_enum.default = def;
	
	return _enum;
}

var hasRequiredValidation;

function requireValidation () {
	if (hasRequiredValidation) return validation;
	hasRequiredValidation = 1;
	Object.defineProperty(validation, "__esModule", { value: true });
	const limitNumber_1 = /*@__PURE__*/ requireLimitNumber();
	const multipleOf_1 = /*@__PURE__*/ requireMultipleOf();
	const limitLength_1 = /*@__PURE__*/ requireLimitLength();
	const pattern_1 = /*@__PURE__*/ requirePattern();
	const limitProperties_1 = /*@__PURE__*/ requireLimitProperties();
	const required_1 = /*@__PURE__*/ requireRequired();
	const limitItems_1 = /*@__PURE__*/ requireLimitItems();
	const uniqueItems_1 = /*@__PURE__*/ requireUniqueItems();
	const const_1 = /*@__PURE__*/ require_const();
	const enum_1 = /*@__PURE__*/ require_enum();
	const validation$1 = [
	    // number
	    limitNumber_1.default,
	    multipleOf_1.default,
	    // string
	    limitLength_1.default,
	    pattern_1.default,
	    // object
	    limitProperties_1.default,
	    required_1.default,
	    // array
	    limitItems_1.default,
	    uniqueItems_1.default,
	    // any
	    { keyword: "type", schemaType: ["string", "array"] },
	    { keyword: "nullable", schemaType: "boolean" },
	    const_1.default,
	    enum_1.default,
	];
	validation.default = validation$1;
	
	return validation;
}

var applicator = {};

var additionalItems = {};

var hasRequiredAdditionalItems;

function requireAdditionalItems () {
	if (hasRequiredAdditionalItems) return additionalItems;
	hasRequiredAdditionalItems = 1;
	Object.defineProperty(additionalItems, "__esModule", { value: true });
	additionalItems.validateAdditionalItems = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
	    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
	};
	const def = {
	    keyword: "additionalItems",
	    type: "array",
	    schemaType: ["boolean", "object"],
	    before: "uniqueItems",
	    error,
	    code(cxt) {
	        const { parentSchema, it } = cxt;
	        const { items } = parentSchema;
	        if (!Array.isArray(items)) {
	            (0, util_1.checkStrictMode)(it, '"additionalItems" is ignored when "items" is not an array of schemas');
	            return;
	        }
	        validateAdditionalItems(cxt, items);
	    },
	};
	function validateAdditionalItems(cxt, items) {
	    const { gen, schema, data, keyword, it } = cxt;
	    it.items = true;
	    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	    if (schema === false) {
	        cxt.setParams({ len: items.length });
	        cxt.pass((0, codegen_1._) `${len} <= ${items.length}`);
	    }
	    else if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
	        const valid = gen.var("valid", (0, codegen_1._) `${len} <= ${items.length}`); // TODO var
	        gen.if((0, codegen_1.not)(valid), () => validateItems(valid));
	        cxt.ok(valid);
	    }
	    function validateItems(valid) {
	        gen.forRange("i", items.length, len, (i) => {
	            cxt.subschema({ keyword, dataProp: i, dataPropType: util_1.Type.Num }, valid);
	            if (!it.allErrors)
	                gen.if((0, codegen_1.not)(valid), () => gen.break());
	        });
	    }
	}
	additionalItems.validateAdditionalItems = validateAdditionalItems;
	additionalItems.default = def;
	
	return additionalItems;
}

var prefixItems = {};

var items = {};

var hasRequiredItems;

function requireItems () {
	if (hasRequiredItems) return items;
	hasRequiredItems = 1;
	Object.defineProperty(items, "__esModule", { value: true });
	items.validateTuple = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const code_1 = /*@__PURE__*/ requireCode();
	const def = {
	    keyword: "items",
	    type: "array",
	    schemaType: ["object", "array", "boolean"],
	    before: "uniqueItems",
	    code(cxt) {
	        const { schema, it } = cxt;
	        if (Array.isArray(schema))
	            return validateTuple(cxt, "additionalItems", schema);
	        it.items = true;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        cxt.ok((0, code_1.validateArray)(cxt));
	    },
	};
	function validateTuple(cxt, extraItems, schArr = cxt.schema) {
	    const { gen, parentSchema, data, keyword, it } = cxt;
	    checkStrictTuple(parentSchema);
	    if (it.opts.unevaluated && schArr.length && it.items !== true) {
	        it.items = util_1.mergeEvaluated.items(gen, schArr.length, it.items);
	    }
	    const valid = gen.name("valid");
	    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	    schArr.forEach((sch, i) => {
	        if ((0, util_1.alwaysValidSchema)(it, sch))
	            return;
	        gen.if((0, codegen_1._) `${len} > ${i}`, () => cxt.subschema({
	            keyword,
	            schemaProp: i,
	            dataProp: i,
	        }, valid));
	        cxt.ok(valid);
	    });
	    function checkStrictTuple(sch) {
	        const { opts, errSchemaPath } = it;
	        const l = schArr.length;
	        const fullTuple = l === sch.minItems && (l === sch.maxItems || sch[extraItems] === false);
	        if (opts.strictTuples && !fullTuple) {
	            const msg = `"${keyword}" is ${l}-tuple, but minItems or maxItems/${extraItems} are not specified or different at path "${errSchemaPath}"`;
	            (0, util_1.checkStrictMode)(it, msg, opts.strictTuples);
	        }
	    }
	}
	items.validateTuple = validateTuple;
	items.default = def;
	
	return items;
}

var hasRequiredPrefixItems;

function requirePrefixItems () {
	if (hasRequiredPrefixItems) return prefixItems;
	hasRequiredPrefixItems = 1;
	Object.defineProperty(prefixItems, "__esModule", { value: true });
	const items_1 = /*@__PURE__*/ requireItems();
	const def = {
	    keyword: "prefixItems",
	    type: "array",
	    schemaType: ["array"],
	    before: "uniqueItems",
	    code: (cxt) => (0, items_1.validateTuple)(cxt, "items"),
	};
	prefixItems.default = def;
	
	return prefixItems;
}

var items2020 = {};

var hasRequiredItems2020;

function requireItems2020 () {
	if (hasRequiredItems2020) return items2020;
	hasRequiredItems2020 = 1;
	Object.defineProperty(items2020, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const code_1 = /*@__PURE__*/ requireCode();
	const additionalItems_1 = /*@__PURE__*/ requireAdditionalItems();
	const error = {
	    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
	    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
	};
	const def = {
	    keyword: "items",
	    type: "array",
	    schemaType: ["object", "boolean"],
	    before: "uniqueItems",
	    error,
	    code(cxt) {
	        const { schema, parentSchema, it } = cxt;
	        const { prefixItems } = parentSchema;
	        it.items = true;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        if (prefixItems)
	            (0, additionalItems_1.validateAdditionalItems)(cxt, prefixItems);
	        else
	            cxt.ok((0, code_1.validateArray)(cxt));
	    },
	};
	items2020.default = def;
	
	return items2020;
}

var contains = {};

var hasRequiredContains;

function requireContains () {
	if (hasRequiredContains) return contains;
	hasRequiredContains = 1;
	Object.defineProperty(contains, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { min, max } }) => max === undefined
	        ? (0, codegen_1.str) `must contain at least ${min} valid item(s)`
	        : (0, codegen_1.str) `must contain at least ${min} and no more than ${max} valid item(s)`,
	    params: ({ params: { min, max } }) => max === undefined ? (0, codegen_1._) `{minContains: ${min}}` : (0, codegen_1._) `{minContains: ${min}, maxContains: ${max}}`,
	};
	const def = {
	    keyword: "contains",
	    type: "array",
	    schemaType: ["object", "boolean"],
	    before: "uniqueItems",
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, data, it } = cxt;
	        let min;
	        let max;
	        const { minContains, maxContains } = parentSchema;
	        if (it.opts.next) {
	            min = minContains === undefined ? 1 : minContains;
	            max = maxContains;
	        }
	        else {
	            min = 1;
	        }
	        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	        cxt.setParams({ min, max });
	        if (max === undefined && min === 0) {
	            (0, util_1.checkStrictMode)(it, `"minContains" == 0 without "maxContains": "contains" keyword ignored`);
	            return;
	        }
	        if (max !== undefined && min > max) {
	            (0, util_1.checkStrictMode)(it, `"minContains" > "maxContains" is always invalid`);
	            cxt.fail();
	            return;
	        }
	        if ((0, util_1.alwaysValidSchema)(it, schema)) {
	            let cond = (0, codegen_1._) `${len} >= ${min}`;
	            if (max !== undefined)
	                cond = (0, codegen_1._) `${cond} && ${len} <= ${max}`;
	            cxt.pass(cond);
	            return;
	        }
	        it.items = true;
	        const valid = gen.name("valid");
	        if (max === undefined && min === 1) {
	            validateItems(valid, () => gen.if(valid, () => gen.break()));
	        }
	        else if (min === 0) {
	            gen.let(valid, true);
	            if (max !== undefined)
	                gen.if((0, codegen_1._) `${data}.length > 0`, validateItemsWithCount);
	        }
	        else {
	            gen.let(valid, false);
	            validateItemsWithCount();
	        }
	        cxt.result(valid, () => cxt.reset());
	        function validateItemsWithCount() {
	            const schValid = gen.name("_valid");
	            const count = gen.let("count", 0);
	            validateItems(schValid, () => gen.if(schValid, () => checkLimits(count)));
	        }
	        function validateItems(_valid, block) {
	            gen.forRange("i", 0, len, (i) => {
	                cxt.subschema({
	                    keyword: "contains",
	                    dataProp: i,
	                    dataPropType: util_1.Type.Num,
	                    compositeRule: true,
	                }, _valid);
	                block();
	            });
	        }
	        function checkLimits(count) {
	            gen.code((0, codegen_1._) `${count}++`);
	            if (max === undefined) {
	                gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true).break());
	            }
	            else {
	                gen.if((0, codegen_1._) `${count} > ${max}`, () => gen.assign(valid, false).break());
	                if (min === 1)
	                    gen.assign(valid, true);
	                else
	                    gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true));
	            }
	        }
	    },
	};
	contains.default = def;
	
	return contains;
}

var dependencies = {};

var hasRequiredDependencies;

function requireDependencies () {
	if (hasRequiredDependencies) return dependencies;
	hasRequiredDependencies = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.validateSchemaDeps = exports.validatePropertyDeps = exports.error = void 0;
		const codegen_1 = /*@__PURE__*/ requireCodegen();
		const util_1 = /*@__PURE__*/ requireUtil();
		const code_1 = /*@__PURE__*/ requireCode();
		exports.error = {
		    message: ({ params: { property, depsCount, deps } }) => {
		        const property_ies = depsCount === 1 ? "property" : "properties";
		        return (0, codegen_1.str) `must have ${property_ies} ${deps} when property ${property} is present`;
		    },
		    params: ({ params: { property, depsCount, deps, missingProperty } }) => (0, codegen_1._) `{property: ${property},
    missingProperty: ${missingProperty},
    depsCount: ${depsCount},
    deps: ${deps}}`, // TODO change to reference
		};
		const def = {
		    keyword: "dependencies",
		    type: "object",
		    schemaType: "object",
		    error: exports.error,
		    code(cxt) {
		        const [propDeps, schDeps] = splitDependencies(cxt);
		        validatePropertyDeps(cxt, propDeps);
		        validateSchemaDeps(cxt, schDeps);
		    },
		};
		function splitDependencies({ schema }) {
		    const propertyDeps = {};
		    const schemaDeps = {};
		    for (const key in schema) {
		        if (key === "__proto__")
		            continue;
		        const deps = Array.isArray(schema[key]) ? propertyDeps : schemaDeps;
		        deps[key] = schema[key];
		    }
		    return [propertyDeps, schemaDeps];
		}
		function validatePropertyDeps(cxt, propertyDeps = cxt.schema) {
		    const { gen, data, it } = cxt;
		    if (Object.keys(propertyDeps).length === 0)
		        return;
		    const missing = gen.let("missing");
		    for (const prop in propertyDeps) {
		        const deps = propertyDeps[prop];
		        if (deps.length === 0)
		            continue;
		        const hasProperty = (0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties);
		        cxt.setParams({
		            property: prop,
		            depsCount: deps.length,
		            deps: deps.join(", "),
		        });
		        if (it.allErrors) {
		            gen.if(hasProperty, () => {
		                for (const depProp of deps) {
		                    (0, code_1.checkReportMissingProp)(cxt, depProp);
		                }
		            });
		        }
		        else {
		            gen.if((0, codegen_1._) `${hasProperty} && (${(0, code_1.checkMissingProp)(cxt, deps, missing)})`);
		            (0, code_1.reportMissingProp)(cxt, missing);
		            gen.else();
		        }
		    }
		}
		exports.validatePropertyDeps = validatePropertyDeps;
		function validateSchemaDeps(cxt, schemaDeps = cxt.schema) {
		    const { gen, data, keyword, it } = cxt;
		    const valid = gen.name("valid");
		    for (const prop in schemaDeps) {
		        if ((0, util_1.alwaysValidSchema)(it, schemaDeps[prop]))
		            continue;
		        gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties), () => {
		            const schCxt = cxt.subschema({ keyword, schemaProp: prop }, valid);
		            cxt.mergeValidEvaluated(schCxt, valid);
		        }, () => gen.var(valid, true) // TODO var
		        );
		        cxt.ok(valid);
		    }
		}
		exports.validateSchemaDeps = validateSchemaDeps;
		exports.default = def;
		
	} (dependencies));
	return dependencies;
}

var propertyNames = {};

var hasRequiredPropertyNames;

function requirePropertyNames () {
	if (hasRequiredPropertyNames) return propertyNames;
	hasRequiredPropertyNames = 1;
	Object.defineProperty(propertyNames, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "property name must be valid",
	    params: ({ params }) => (0, codegen_1._) `{propertyName: ${params.propertyName}}`,
	};
	const def = {
	    keyword: "propertyNames",
	    type: "object",
	    schemaType: ["object", "boolean"],
	    error,
	    code(cxt) {
	        const { gen, schema, data, it } = cxt;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        const valid = gen.name("valid");
	        gen.forIn("key", data, (key) => {
	            cxt.setParams({ propertyName: key });
	            cxt.subschema({
	                keyword: "propertyNames",
	                data: key,
	                dataTypes: ["string"],
	                propertyName: key,
	                compositeRule: true,
	            }, valid);
	            gen.if((0, codegen_1.not)(valid), () => {
	                cxt.error(true);
	                if (!it.allErrors)
	                    gen.break();
	            });
	        });
	        cxt.ok(valid);
	    },
	};
	propertyNames.default = def;
	
	return propertyNames;
}

var additionalProperties = {};

var hasRequiredAdditionalProperties;

function requireAdditionalProperties () {
	if (hasRequiredAdditionalProperties) return additionalProperties;
	hasRequiredAdditionalProperties = 1;
	Object.defineProperty(additionalProperties, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "must NOT have additional properties",
	    params: ({ params }) => (0, codegen_1._) `{additionalProperty: ${params.additionalProperty}}`,
	};
	const def = {
	    keyword: "additionalProperties",
	    type: ["object"],
	    schemaType: ["boolean", "object"],
	    allowUndefined: true,
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, data, errsCount, it } = cxt;
	        /* istanbul ignore if */
	        if (!errsCount)
	            throw new Error("ajv implementation error");
	        const { allErrors, opts } = it;
	        it.props = true;
	        if (opts.removeAdditional !== "all" && (0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        const props = (0, code_1.allSchemaProperties)(parentSchema.properties);
	        const patProps = (0, code_1.allSchemaProperties)(parentSchema.patternProperties);
	        checkAdditionalProperties();
	        cxt.ok((0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
	        function checkAdditionalProperties() {
	            gen.forIn("key", data, (key) => {
	                if (!props.length && !patProps.length)
	                    additionalPropertyCode(key);
	                else
	                    gen.if(isAdditional(key), () => additionalPropertyCode(key));
	            });
	        }
	        function isAdditional(key) {
	            let definedProp;
	            if (props.length > 8) {
	                // TODO maybe an option instead of hard-coded 8?
	                const propsSchema = (0, util_1.schemaRefOrVal)(it, parentSchema.properties, "properties");
	                definedProp = (0, code_1.isOwnProperty)(gen, propsSchema, key);
	            }
	            else if (props.length) {
	                definedProp = (0, codegen_1.or)(...props.map((p) => (0, codegen_1._) `${key} === ${p}`));
	            }
	            else {
	                definedProp = codegen_1.nil;
	            }
	            if (patProps.length) {
	                definedProp = (0, codegen_1.or)(definedProp, ...patProps.map((p) => (0, codegen_1._) `${(0, code_1.usePattern)(cxt, p)}.test(${key})`));
	            }
	            return (0, codegen_1.not)(definedProp);
	        }
	        function deleteAdditional(key) {
	            gen.code((0, codegen_1._) `delete ${data}[${key}]`);
	        }
	        function additionalPropertyCode(key) {
	            if (opts.removeAdditional === "all" || (opts.removeAdditional && schema === false)) {
	                deleteAdditional(key);
	                return;
	            }
	            if (schema === false) {
	                cxt.setParams({ additionalProperty: key });
	                cxt.error();
	                if (!allErrors)
	                    gen.break();
	                return;
	            }
	            if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
	                const valid = gen.name("valid");
	                if (opts.removeAdditional === "failing") {
	                    applyAdditionalSchema(key, valid, false);
	                    gen.if((0, codegen_1.not)(valid), () => {
	                        cxt.reset();
	                        deleteAdditional(key);
	                    });
	                }
	                else {
	                    applyAdditionalSchema(key, valid);
	                    if (!allErrors)
	                        gen.if((0, codegen_1.not)(valid), () => gen.break());
	                }
	            }
	        }
	        function applyAdditionalSchema(key, valid, errors) {
	            const subschema = {
	                keyword: "additionalProperties",
	                dataProp: key,
	                dataPropType: util_1.Type.Str,
	            };
	            if (errors === false) {
	                Object.assign(subschema, {
	                    compositeRule: true,
	                    createErrors: false,
	                    allErrors: false,
	                });
	            }
	            cxt.subschema(subschema, valid);
	        }
	    },
	};
	additionalProperties.default = def;
	
	return additionalProperties;
}

var properties$1 = {};

var hasRequiredProperties;

function requireProperties () {
	if (hasRequiredProperties) return properties$1;
	hasRequiredProperties = 1;
	Object.defineProperty(properties$1, "__esModule", { value: true });
	const validate_1 = /*@__PURE__*/ requireValidate();
	const code_1 = /*@__PURE__*/ requireCode();
	const util_1 = /*@__PURE__*/ requireUtil();
	const additionalProperties_1 = /*@__PURE__*/ requireAdditionalProperties();
	const def = {
	    keyword: "properties",
	    type: "object",
	    schemaType: "object",
	    code(cxt) {
	        const { gen, schema, parentSchema, data, it } = cxt;
	        if (it.opts.removeAdditional === "all" && parentSchema.additionalProperties === undefined) {
	            additionalProperties_1.default.code(new validate_1.KeywordCxt(it, additionalProperties_1.default, "additionalProperties"));
	        }
	        const allProps = (0, code_1.allSchemaProperties)(schema);
	        for (const prop of allProps) {
	            it.definedProperties.add(prop);
	        }
	        if (it.opts.unevaluated && allProps.length && it.props !== true) {
	            it.props = util_1.mergeEvaluated.props(gen, (0, util_1.toHash)(allProps), it.props);
	        }
	        const properties = allProps.filter((p) => !(0, util_1.alwaysValidSchema)(it, schema[p]));
	        if (properties.length === 0)
	            return;
	        const valid = gen.name("valid");
	        for (const prop of properties) {
	            if (hasDefault(prop)) {
	                applyPropertySchema(prop);
	            }
	            else {
	                gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties));
	                applyPropertySchema(prop);
	                if (!it.allErrors)
	                    gen.else().var(valid, true);
	                gen.endIf();
	            }
	            cxt.it.definedProperties.add(prop);
	            cxt.ok(valid);
	        }
	        function hasDefault(prop) {
	            return it.opts.useDefaults && !it.compositeRule && schema[prop].default !== undefined;
	        }
	        function applyPropertySchema(prop) {
	            cxt.subschema({
	                keyword: "properties",
	                schemaProp: prop,
	                dataProp: prop,
	            }, valid);
	        }
	    },
	};
	properties$1.default = def;
	
	return properties$1;
}

var patternProperties = {};

var hasRequiredPatternProperties;

function requirePatternProperties () {
	if (hasRequiredPatternProperties) return patternProperties;
	hasRequiredPatternProperties = 1;
	Object.defineProperty(patternProperties, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const util_2 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "patternProperties",
	    type: "object",
	    schemaType: "object",
	    code(cxt) {
	        const { gen, schema, data, parentSchema, it } = cxt;
	        const { opts } = it;
	        const patterns = (0, code_1.allSchemaProperties)(schema);
	        const alwaysValidPatterns = patterns.filter((p) => (0, util_1.alwaysValidSchema)(it, schema[p]));
	        if (patterns.length === 0 ||
	            (alwaysValidPatterns.length === patterns.length &&
	                (!it.opts.unevaluated || it.props === true))) {
	            return;
	        }
	        const checkProperties = opts.strictSchema && !opts.allowMatchingProperties && parentSchema.properties;
	        const valid = gen.name("valid");
	        if (it.props !== true && !(it.props instanceof codegen_1.Name)) {
	            it.props = (0, util_2.evaluatedPropsToName)(gen, it.props);
	        }
	        const { props } = it;
	        validatePatternProperties();
	        function validatePatternProperties() {
	            for (const pat of patterns) {
	                if (checkProperties)
	                    checkMatchingProperties(pat);
	                if (it.allErrors) {
	                    validateProperties(pat);
	                }
	                else {
	                    gen.var(valid, true); // TODO var
	                    validateProperties(pat);
	                    gen.if(valid);
	                }
	            }
	        }
	        function checkMatchingProperties(pat) {
	            for (const prop in checkProperties) {
	                if (new RegExp(pat).test(prop)) {
	                    (0, util_1.checkStrictMode)(it, `property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
	                }
	            }
	        }
	        function validateProperties(pat) {
	            gen.forIn("key", data, (key) => {
	                gen.if((0, codegen_1._) `${(0, code_1.usePattern)(cxt, pat)}.test(${key})`, () => {
	                    const alwaysValid = alwaysValidPatterns.includes(pat);
	                    if (!alwaysValid) {
	                        cxt.subschema({
	                            keyword: "patternProperties",
	                            schemaProp: pat,
	                            dataProp: key,
	                            dataPropType: util_2.Type.Str,
	                        }, valid);
	                    }
	                    if (it.opts.unevaluated && props !== true) {
	                        gen.assign((0, codegen_1._) `${props}[${key}]`, true);
	                    }
	                    else if (!alwaysValid && !it.allErrors) {
	                        // can short-circuit if `unevaluatedProperties` is not supported (opts.next === false)
	                        // or if all properties were evaluated (props === true)
	                        gen.if((0, codegen_1.not)(valid), () => gen.break());
	                    }
	                });
	            });
	        }
	    },
	};
	patternProperties.default = def;
	
	return patternProperties;
}

var not = {};

var hasRequiredNot;

function requireNot () {
	if (hasRequiredNot) return not;
	hasRequiredNot = 1;
	Object.defineProperty(not, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "not",
	    schemaType: ["object", "boolean"],
	    trackErrors: true,
	    code(cxt) {
	        const { gen, schema, it } = cxt;
	        if ((0, util_1.alwaysValidSchema)(it, schema)) {
	            cxt.fail();
	            return;
	        }
	        const valid = gen.name("valid");
	        cxt.subschema({
	            keyword: "not",
	            compositeRule: true,
	            createErrors: false,
	            allErrors: false,
	        }, valid);
	        cxt.failResult(valid, () => cxt.reset(), () => cxt.error());
	    },
	    error: { message: "must NOT be valid" },
	};
	not.default = def;
	
	return not;
}

var anyOf = {};

var hasRequiredAnyOf;

function requireAnyOf () {
	if (hasRequiredAnyOf) return anyOf;
	hasRequiredAnyOf = 1;
	Object.defineProperty(anyOf, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const def = {
	    keyword: "anyOf",
	    schemaType: "array",
	    trackErrors: true,
	    code: code_1.validateUnion,
	    error: { message: "must match a schema in anyOf" },
	};
	anyOf.default = def;
	
	return anyOf;
}

var oneOf = {};

var hasRequiredOneOf;

function requireOneOf () {
	if (hasRequiredOneOf) return oneOf;
	hasRequiredOneOf = 1;
	Object.defineProperty(oneOf, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "must match exactly one schema in oneOf",
	    params: ({ params }) => (0, codegen_1._) `{passingSchemas: ${params.passing}}`,
	};
	const def = {
	    keyword: "oneOf",
	    schemaType: "array",
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, it } = cxt;
	        /* istanbul ignore if */
	        if (!Array.isArray(schema))
	            throw new Error("ajv implementation error");
	        if (it.opts.discriminator && parentSchema.discriminator)
	            return;
	        const schArr = schema;
	        const valid = gen.let("valid", false);
	        const passing = gen.let("passing", null);
	        const schValid = gen.name("_valid");
	        cxt.setParams({ passing });
	        // TODO possibly fail straight away (with warning or exception) if there are two empty always valid schemas
	        gen.block(validateOneOf);
	        cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
	        function validateOneOf() {
	            schArr.forEach((sch, i) => {
	                let schCxt;
	                if ((0, util_1.alwaysValidSchema)(it, sch)) {
	                    gen.var(schValid, true);
	                }
	                else {
	                    schCxt = cxt.subschema({
	                        keyword: "oneOf",
	                        schemaProp: i,
	                        compositeRule: true,
	                    }, schValid);
	                }
	                if (i > 0) {
	                    gen
	                        .if((0, codegen_1._) `${schValid} && ${valid}`)
	                        .assign(valid, false)
	                        .assign(passing, (0, codegen_1._) `[${passing}, ${i}]`)
	                        .else();
	                }
	                gen.if(schValid, () => {
	                    gen.assign(valid, true);
	                    gen.assign(passing, i);
	                    if (schCxt)
	                        cxt.mergeEvaluated(schCxt, codegen_1.Name);
	                });
	            });
	        }
	    },
	};
	oneOf.default = def;
	
	return oneOf;
}

var allOf = {};

var hasRequiredAllOf;

function requireAllOf () {
	if (hasRequiredAllOf) return allOf;
	hasRequiredAllOf = 1;
	Object.defineProperty(allOf, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "allOf",
	    schemaType: "array",
	    code(cxt) {
	        const { gen, schema, it } = cxt;
	        /* istanbul ignore if */
	        if (!Array.isArray(schema))
	            throw new Error("ajv implementation error");
	        const valid = gen.name("valid");
	        schema.forEach((sch, i) => {
	            if ((0, util_1.alwaysValidSchema)(it, sch))
	                return;
	            const schCxt = cxt.subschema({ keyword: "allOf", schemaProp: i }, valid);
	            cxt.ok(valid);
	            cxt.mergeEvaluated(schCxt);
	        });
	    },
	};
	allOf.default = def;
	
	return allOf;
}

var _if = {};

var hasRequired_if;

function require_if () {
	if (hasRequired_if) return _if;
	hasRequired_if = 1;
	Object.defineProperty(_if, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params }) => (0, codegen_1.str) `must match "${params.ifClause}" schema`,
	    params: ({ params }) => (0, codegen_1._) `{failingKeyword: ${params.ifClause}}`,
	};
	const def = {
	    keyword: "if",
	    schemaType: ["object", "boolean"],
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, parentSchema, it } = cxt;
	        if (parentSchema.then === undefined && parentSchema.else === undefined) {
	            (0, util_1.checkStrictMode)(it, '"if" without "then" and "else" is ignored');
	        }
	        const hasThen = hasSchema(it, "then");
	        const hasElse = hasSchema(it, "else");
	        if (!hasThen && !hasElse)
	            return;
	        const valid = gen.let("valid", true);
	        const schValid = gen.name("_valid");
	        validateIf();
	        cxt.reset();
	        if (hasThen && hasElse) {
	            const ifClause = gen.let("ifClause");
	            cxt.setParams({ ifClause });
	            gen.if(schValid, validateClause("then", ifClause), validateClause("else", ifClause));
	        }
	        else if (hasThen) {
	            gen.if(schValid, validateClause("then"));
	        }
	        else {
	            gen.if((0, codegen_1.not)(schValid), validateClause("else"));
	        }
	        cxt.pass(valid, () => cxt.error(true));
	        function validateIf() {
	            const schCxt = cxt.subschema({
	                keyword: "if",
	                compositeRule: true,
	                createErrors: false,
	                allErrors: false,
	            }, schValid);
	            cxt.mergeEvaluated(schCxt);
	        }
	        function validateClause(keyword, ifClause) {
	            return () => {
	                const schCxt = cxt.subschema({ keyword }, schValid);
	                gen.assign(valid, schValid);
	                cxt.mergeValidEvaluated(schCxt, valid);
	                if (ifClause)
	                    gen.assign(ifClause, (0, codegen_1._) `${keyword}`);
	                else
	                    cxt.setParams({ ifClause: keyword });
	            };
	        }
	    },
	};
	function hasSchema(it, keyword) {
	    const schema = it.schema[keyword];
	    return schema !== undefined && !(0, util_1.alwaysValidSchema)(it, schema);
	}
	_if.default = def;
	
	return _if;
}

var thenElse = {};

var hasRequiredThenElse;

function requireThenElse () {
	if (hasRequiredThenElse) return thenElse;
	hasRequiredThenElse = 1;
	Object.defineProperty(thenElse, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: ["then", "else"],
	    schemaType: ["object", "boolean"],
	    code({ keyword, parentSchema, it }) {
	        if (parentSchema.if === undefined)
	            (0, util_1.checkStrictMode)(it, `"${keyword}" without "if" is ignored`);
	    },
	};
	thenElse.default = def;
	
	return thenElse;
}

var hasRequiredApplicator;

function requireApplicator () {
	if (hasRequiredApplicator) return applicator;
	hasRequiredApplicator = 1;
	Object.defineProperty(applicator, "__esModule", { value: true });
	const additionalItems_1 = /*@__PURE__*/ requireAdditionalItems();
	const prefixItems_1 = /*@__PURE__*/ requirePrefixItems();
	const items_1 = /*@__PURE__*/ requireItems();
	const items2020_1 = /*@__PURE__*/ requireItems2020();
	const contains_1 = /*@__PURE__*/ requireContains();
	const dependencies_1 = /*@__PURE__*/ requireDependencies();
	const propertyNames_1 = /*@__PURE__*/ requirePropertyNames();
	const additionalProperties_1 = /*@__PURE__*/ requireAdditionalProperties();
	const properties_1 = /*@__PURE__*/ requireProperties();
	const patternProperties_1 = /*@__PURE__*/ requirePatternProperties();
	const not_1 = /*@__PURE__*/ requireNot();
	const anyOf_1 = /*@__PURE__*/ requireAnyOf();
	const oneOf_1 = /*@__PURE__*/ requireOneOf();
	const allOf_1 = /*@__PURE__*/ requireAllOf();
	const if_1 = /*@__PURE__*/ require_if();
	const thenElse_1 = /*@__PURE__*/ requireThenElse();
	function getApplicator(draft2020 = false) {
	    const applicator = [
	        // any
	        not_1.default,
	        anyOf_1.default,
	        oneOf_1.default,
	        allOf_1.default,
	        if_1.default,
	        thenElse_1.default,
	        // object
	        propertyNames_1.default,
	        additionalProperties_1.default,
	        dependencies_1.default,
	        properties_1.default,
	        patternProperties_1.default,
	    ];
	    // array
	    if (draft2020)
	        applicator.push(prefixItems_1.default, items2020_1.default);
	    else
	        applicator.push(additionalItems_1.default, items_1.default);
	    applicator.push(contains_1.default);
	    return applicator;
	}
	applicator.default = getApplicator;
	
	return applicator;
}

var format$1 = {};

var format = {};

var hasRequiredFormat$1;

function requireFormat$1 () {
	if (hasRequiredFormat$1) return format;
	hasRequiredFormat$1 = 1;
	Object.defineProperty(format, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must match format "${schemaCode}"`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{format: ${schemaCode}}`,
	};
	const def = {
	    keyword: "format",
	    type: ["number", "string"],
	    schemaType: "string",
	    $data: true,
	    error,
	    code(cxt, ruleType) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        const { opts, errSchemaPath, schemaEnv, self } = it;
	        if (!opts.validateFormats)
	            return;
	        if ($data)
	            validate$DataFormat();
	        else
	            validateFormat();
	        function validate$DataFormat() {
	            const fmts = gen.scopeValue("formats", {
	                ref: self.formats,
	                code: opts.code.formats,
	            });
	            const fDef = gen.const("fDef", (0, codegen_1._) `${fmts}[${schemaCode}]`);
	            const fType = gen.let("fType");
	            const format = gen.let("format");
	            // TODO simplify
	            gen.if((0, codegen_1._) `typeof ${fDef} == "object" && !(${fDef} instanceof RegExp)`, () => gen.assign(fType, (0, codegen_1._) `${fDef}.type || "string"`).assign(format, (0, codegen_1._) `${fDef}.validate`), () => gen.assign(fType, (0, codegen_1._) `"string"`).assign(format, fDef));
	            cxt.fail$data((0, codegen_1.or)(unknownFmt(), invalidFmt()));
	            function unknownFmt() {
	                if (opts.strictSchema === false)
	                    return codegen_1.nil;
	                return (0, codegen_1._) `${schemaCode} && !${format}`;
	            }
	            function invalidFmt() {
	                const callFormat = schemaEnv.$async
	                    ? (0, codegen_1._) `(${fDef}.async ? await ${format}(${data}) : ${format}(${data}))`
	                    : (0, codegen_1._) `${format}(${data})`;
	                const validData = (0, codegen_1._) `(typeof ${format} == "function" ? ${callFormat} : ${format}.test(${data}))`;
	                return (0, codegen_1._) `${format} && ${format} !== true && ${fType} === ${ruleType} && !${validData}`;
	            }
	        }
	        function validateFormat() {
	            const formatDef = self.formats[schema];
	            if (!formatDef) {
	                unknownFormat();
	                return;
	            }
	            if (formatDef === true)
	                return;
	            const [fmtType, format, fmtRef] = getFormat(formatDef);
	            if (fmtType === ruleType)
	                cxt.pass(validCondition());
	            function unknownFormat() {
	                if (opts.strictSchema === false) {
	                    self.logger.warn(unknownMsg());
	                    return;
	                }
	                throw new Error(unknownMsg());
	                function unknownMsg() {
	                    return `unknown format "${schema}" ignored in schema at path "${errSchemaPath}"`;
	                }
	            }
	            function getFormat(fmtDef) {
	                const code = fmtDef instanceof RegExp
	                    ? (0, codegen_1.regexpCode)(fmtDef)
	                    : opts.code.formats
	                        ? (0, codegen_1._) `${opts.code.formats}${(0, codegen_1.getProperty)(schema)}`
	                        : undefined;
	                const fmt = gen.scopeValue("formats", { key: schema, ref: fmtDef, code });
	                if (typeof fmtDef == "object" && !(fmtDef instanceof RegExp)) {
	                    return [fmtDef.type || "string", fmtDef.validate, (0, codegen_1._) `${fmt}.validate`];
	                }
	                return ["string", fmtDef, fmt];
	            }
	            function validCondition() {
	                if (typeof formatDef == "object" && !(formatDef instanceof RegExp) && formatDef.async) {
	                    if (!schemaEnv.$async)
	                        throw new Error("async format in sync schema");
	                    return (0, codegen_1._) `await ${fmtRef}(${data})`;
	                }
	                return typeof format == "function" ? (0, codegen_1._) `${fmtRef}(${data})` : (0, codegen_1._) `${fmtRef}.test(${data})`;
	            }
	        }
	    },
	};
	format.default = def;
	
	return format;
}

var hasRequiredFormat;

function requireFormat () {
	if (hasRequiredFormat) return format$1;
	hasRequiredFormat = 1;
	Object.defineProperty(format$1, "__esModule", { value: true });
	const format_1 = /*@__PURE__*/ requireFormat$1();
	const format = [format_1.default];
	format$1.default = format;
	
	return format$1;
}

var metadata = {};

var hasRequiredMetadata;

function requireMetadata () {
	if (hasRequiredMetadata) return metadata;
	hasRequiredMetadata = 1;
	Object.defineProperty(metadata, "__esModule", { value: true });
	metadata.contentVocabulary = metadata.metadataVocabulary = void 0;
	metadata.metadataVocabulary = [
	    "title",
	    "description",
	    "default",
	    "deprecated",
	    "readOnly",
	    "writeOnly",
	    "examples",
	];
	metadata.contentVocabulary = [
	    "contentMediaType",
	    "contentEncoding",
	    "contentSchema",
	];
	
	return metadata;
}

var hasRequiredDraft7;

function requireDraft7 () {
	if (hasRequiredDraft7) return draft7;
	hasRequiredDraft7 = 1;
	Object.defineProperty(draft7, "__esModule", { value: true });
	const core_1 = /*@__PURE__*/ requireCore();
	const validation_1 = /*@__PURE__*/ requireValidation();
	const applicator_1 = /*@__PURE__*/ requireApplicator();
	const format_1 = /*@__PURE__*/ requireFormat();
	const metadata_1 = /*@__PURE__*/ requireMetadata();
	const draft7Vocabularies = [
	    core_1.default,
	    validation_1.default,
	    (0, applicator_1.default)(),
	    format_1.default,
	    metadata_1.metadataVocabulary,
	    metadata_1.contentVocabulary,
	];
	draft7.default = draft7Vocabularies;
	
	return draft7;
}

var discriminator = {};

var types = {};

var hasRequiredTypes;

function requireTypes () {
	if (hasRequiredTypes) return types;
	hasRequiredTypes = 1;
	Object.defineProperty(types, "__esModule", { value: true });
	types.DiscrError = void 0;
	var DiscrError;
	(function (DiscrError) {
	    DiscrError["Tag"] = "tag";
	    DiscrError["Mapping"] = "mapping";
	})(DiscrError || (types.DiscrError = DiscrError = {}));
	
	return types;
}

var hasRequiredDiscriminator;

function requireDiscriminator () {
	if (hasRequiredDiscriminator) return discriminator;
	hasRequiredDiscriminator = 1;
	Object.defineProperty(discriminator, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const types_1 = /*@__PURE__*/ requireTypes();
	const compile_1 = /*@__PURE__*/ requireCompile();
	const ref_error_1 = /*@__PURE__*/ requireRef_error();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { discrError, tagName } }) => discrError === types_1.DiscrError.Tag
	        ? `tag "${tagName}" must be string`
	        : `value of tag "${tagName}" must be in oneOf`,
	    params: ({ params: { discrError, tag, tagName } }) => (0, codegen_1._) `{error: ${discrError}, tag: ${tagName}, tagValue: ${tag}}`,
	};
	const def = {
	    keyword: "discriminator",
	    type: "object",
	    schemaType: "object",
	    error,
	    code(cxt) {
	        const { gen, data, schema, parentSchema, it } = cxt;
	        const { oneOf } = parentSchema;
	        if (!it.opts.discriminator) {
	            throw new Error("discriminator: requires discriminator option");
	        }
	        const tagName = schema.propertyName;
	        if (typeof tagName != "string")
	            throw new Error("discriminator: requires propertyName");
	        if (schema.mapping)
	            throw new Error("discriminator: mapping is not supported");
	        if (!oneOf)
	            throw new Error("discriminator: requires oneOf keyword");
	        const valid = gen.let("valid", false);
	        const tag = gen.const("tag", (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(tagName)}`);
	        gen.if((0, codegen_1._) `typeof ${tag} == "string"`, () => validateMapping(), () => cxt.error(false, { discrError: types_1.DiscrError.Tag, tag, tagName }));
	        cxt.ok(valid);
	        function validateMapping() {
	            const mapping = getMapping();
	            gen.if(false);
	            for (const tagValue in mapping) {
	                gen.elseIf((0, codegen_1._) `${tag} === ${tagValue}`);
	                gen.assign(valid, applyTagSchema(mapping[tagValue]));
	            }
	            gen.else();
	            cxt.error(false, { discrError: types_1.DiscrError.Mapping, tag, tagName });
	            gen.endIf();
	        }
	        function applyTagSchema(schemaProp) {
	            const _valid = gen.name("valid");
	            const schCxt = cxt.subschema({ keyword: "oneOf", schemaProp }, _valid);
	            cxt.mergeEvaluated(schCxt, codegen_1.Name);
	            return _valid;
	        }
	        function getMapping() {
	            var _a;
	            const oneOfMapping = {};
	            const topRequired = hasRequired(parentSchema);
	            let tagRequired = true;
	            for (let i = 0; i < oneOf.length; i++) {
	                let sch = oneOf[i];
	                if ((sch === null || sch === void 0 ? void 0 : sch.$ref) && !(0, util_1.schemaHasRulesButRef)(sch, it.self.RULES)) {
	                    const ref = sch.$ref;
	                    sch = compile_1.resolveRef.call(it.self, it.schemaEnv.root, it.baseId, ref);
	                    if (sch instanceof compile_1.SchemaEnv)
	                        sch = sch.schema;
	                    if (sch === undefined)
	                        throw new ref_error_1.default(it.opts.uriResolver, it.baseId, ref);
	                }
	                const propSch = (_a = sch === null || sch === void 0 ? void 0 : sch.properties) === null || _a === void 0 ? void 0 : _a[tagName];
	                if (typeof propSch != "object") {
	                    throw new Error(`discriminator: oneOf subschemas (or referenced schemas) must have "properties/${tagName}"`);
	                }
	                tagRequired = tagRequired && (topRequired || hasRequired(sch));
	                addMappings(propSch, i);
	            }
	            if (!tagRequired)
	                throw new Error(`discriminator: "${tagName}" must be required`);
	            return oneOfMapping;
	            function hasRequired({ required }) {
	                return Array.isArray(required) && required.includes(tagName);
	            }
	            function addMappings(sch, i) {
	                if (sch.const) {
	                    addMapping(sch.const, i);
	                }
	                else if (sch.enum) {
	                    for (const tagValue of sch.enum) {
	                        addMapping(tagValue, i);
	                    }
	                }
	                else {
	                    throw new Error(`discriminator: "properties/${tagName}" must have "const" or "enum"`);
	                }
	            }
	            function addMapping(tagValue, i) {
	                if (typeof tagValue != "string" || tagValue in oneOfMapping) {
	                    throw new Error(`discriminator: "${tagName}" values must be unique strings`);
	                }
	                oneOfMapping[tagValue] = i;
	            }
	        }
	    },
	};
	discriminator.default = def;
	
	return discriminator;
}

var $schema = "http://json-schema.org/draft-07/schema#";
var $id = "http://json-schema.org/draft-07/schema#";
var title = "Core schema meta-schema";
var definitions = {
	schemaArray: {
		type: "array",
		minItems: 1,
		items: {
			$ref: "#"
		}
	},
	nonNegativeInteger: {
		type: "integer",
		minimum: 0
	},
	nonNegativeIntegerDefault0: {
		allOf: [
			{
				$ref: "#/definitions/nonNegativeInteger"
			},
			{
				"default": 0
			}
		]
	},
	simpleTypes: {
		"enum": [
			"array",
			"boolean",
			"integer",
			"null",
			"number",
			"object",
			"string"
		]
	},
	stringArray: {
		type: "array",
		items: {
			type: "string"
		},
		uniqueItems: true,
		"default": [
		]
	}
};
var type = [
	"object",
	"boolean"
];
var properties = {
	$id: {
		type: "string",
		format: "uri-reference"
	},
	$schema: {
		type: "string",
		format: "uri"
	},
	$ref: {
		type: "string",
		format: "uri-reference"
	},
	$comment: {
		type: "string"
	},
	title: {
		type: "string"
	},
	description: {
		type: "string"
	},
	"default": true,
	readOnly: {
		type: "boolean",
		"default": false
	},
	examples: {
		type: "array",
		items: true
	},
	multipleOf: {
		type: "number",
		exclusiveMinimum: 0
	},
	maximum: {
		type: "number"
	},
	exclusiveMaximum: {
		type: "number"
	},
	minimum: {
		type: "number"
	},
	exclusiveMinimum: {
		type: "number"
	},
	maxLength: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minLength: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	pattern: {
		type: "string",
		format: "regex"
	},
	additionalItems: {
		$ref: "#"
	},
	items: {
		anyOf: [
			{
				$ref: "#"
			},
			{
				$ref: "#/definitions/schemaArray"
			}
		],
		"default": true
	},
	maxItems: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minItems: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	uniqueItems: {
		type: "boolean",
		"default": false
	},
	contains: {
		$ref: "#"
	},
	maxProperties: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minProperties: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	required: {
		$ref: "#/definitions/stringArray"
	},
	additionalProperties: {
		$ref: "#"
	},
	definitions: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		"default": {
		}
	},
	properties: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		"default": {
		}
	},
	patternProperties: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		propertyNames: {
			format: "regex"
		},
		"default": {
		}
	},
	dependencies: {
		type: "object",
		additionalProperties: {
			anyOf: [
				{
					$ref: "#"
				},
				{
					$ref: "#/definitions/stringArray"
				}
			]
		}
	},
	propertyNames: {
		$ref: "#"
	},
	"const": true,
	"enum": {
		type: "array",
		items: true,
		minItems: 1,
		uniqueItems: true
	},
	type: {
		anyOf: [
			{
				$ref: "#/definitions/simpleTypes"
			},
			{
				type: "array",
				items: {
					$ref: "#/definitions/simpleTypes"
				},
				minItems: 1,
				uniqueItems: true
			}
		]
	},
	format: {
		type: "string"
	},
	contentMediaType: {
		type: "string"
	},
	contentEncoding: {
		type: "string"
	},
	"if": {
		$ref: "#"
	},
	then: {
		$ref: "#"
	},
	"else": {
		$ref: "#"
	},
	allOf: {
		$ref: "#/definitions/schemaArray"
	},
	anyOf: {
		$ref: "#/definitions/schemaArray"
	},
	oneOf: {
		$ref: "#/definitions/schemaArray"
	},
	not: {
		$ref: "#"
	}
};
var require$$3 = {
	$schema: $schema,
	$id: $id,
	title: title,
	definitions: definitions,
	type: type,
	properties: properties,
	"default": true
};

var hasRequiredAjv;

function requireAjv () {
	if (hasRequiredAjv) return ajv$1.exports;
	hasRequiredAjv = 1;
	(function (module, exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.MissingRefError = exports.ValidationError = exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = exports.Ajv = void 0;
		const core_1 = /*@__PURE__*/ requireCore$1();
		const draft7_1 = /*@__PURE__*/ requireDraft7();
		const discriminator_1 = /*@__PURE__*/ requireDiscriminator();
		const draft7MetaSchema = require$$3;
		const META_SUPPORT_DATA = ["/properties"];
		const META_SCHEMA_ID = "http://json-schema.org/draft-07/schema";
		class Ajv extends core_1.default {
		    _addVocabularies() {
		        super._addVocabularies();
		        draft7_1.default.forEach((v) => this.addVocabulary(v));
		        if (this.opts.discriminator)
		            this.addKeyword(discriminator_1.default);
		    }
		    _addDefaultMetaSchema() {
		        super._addDefaultMetaSchema();
		        if (!this.opts.meta)
		            return;
		        const metaSchema = this.opts.$data
		            ? this.$dataMetaSchema(draft7MetaSchema, META_SUPPORT_DATA)
		            : draft7MetaSchema;
		        this.addMetaSchema(metaSchema, META_SCHEMA_ID, false);
		        this.refs["http://json-schema.org/schema"] = META_SCHEMA_ID;
		    }
		    defaultMeta() {
		        return (this.opts.defaultMeta =
		            super.defaultMeta() || (this.getSchema(META_SCHEMA_ID) ? META_SCHEMA_ID : undefined));
		    }
		}
		exports.Ajv = Ajv;
		module.exports = exports = Ajv;
		module.exports.Ajv = Ajv;
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.default = Ajv;
		var validate_1 = /*@__PURE__*/ requireValidate();
		Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function () { return validate_1.KeywordCxt; } });
		var codegen_1 = /*@__PURE__*/ requireCodegen();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return codegen_1._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return codegen_1.str; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return codegen_1.stringify; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return codegen_1.nil; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return codegen_1.Name; } });
		Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function () { return codegen_1.CodeGen; } });
		var validation_error_1 = /*@__PURE__*/ requireValidation_error();
		Object.defineProperty(exports, "ValidationError", { enumerable: true, get: function () { return validation_error_1.default; } });
		var ref_error_1 = /*@__PURE__*/ requireRef_error();
		Object.defineProperty(exports, "MissingRefError", { enumerable: true, get: function () { return ref_error_1.default; } });
		
	} (ajv$1, ajv$1.exports));
	return ajv$1.exports;
}

var ajvExports = /*@__PURE__*/ requireAjv();
var AjvModule = /*@__PURE__*/getDefaultExportFromCjs(ajvExports);

var ucs2lengthExports = /*@__PURE__*/ requireUcs2length();
var func3_module = /*@__PURE__*/getDefaultExportFromCjs(ucs2lengthExports);

// Written by `npm run schemas` (scripts/schema-checks-source.ts) from src/json/precompiled-schemas.ts: do not edit.
// ajv's standalone checks of the schemas a run validates with, by the hash of each schema (json-schema.ts schemaHash).
const check_c988f3999d856d819c89cf28bb445f4a=function r(a,{instancePath:i="",parentData:n,parentDataProperty:p,rootData:m=a}={}){let c=null,l=0;if(0===l){if(!a||"object"!=typeof a||Array.isArray(a))return r.errors=[{instancePath:i,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let n;if(void 0===a.version&&(n="version")||void 0===a.sections&&(n="sections")||void 0===a.series&&(n="series")||void 0===a.meta&&(n="meta"))return r.errors=[{instancePath:i,schemaPath:"#/required",keyword:"required",params:{missingProperty:n},message:"must have required property '"+n+"'"}],false;{const n=l;for(const e in a)if("$schema"!==e&&"version"!==e&&"sections"!==e&&"series"!==e&&"meta"!==e)return r.errors=[{instancePath:i,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:e},message:"must NOT have additional properties"}],false;if(n===l){if(void 0!==a.$schema){const e=l;if("string"!=typeof a.$schema)return r.errors=[{instancePath:i+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var u=e===l;}else u=true;if(u){if(void 0!==a.version){const e=l;if(2!==a.version)return r.errors=[{instancePath:i+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue:2},message:"must be equal to constant"}],false;u=e===l;}else u=true;if(u){if(void 0!==a.sections){let e=a.sections;const t=l;if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/sections",schemaPath:"#/properties/sections/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;u=t===l;}else u=true;if(u){if(void 0!==a.series){let o=a.series;const n=l;if(l===n){if(!o||"object"!=typeof o||Array.isArray(o))return r.errors=[{instancePath:i+"/series",schemaPath:"#/properties/series/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const a=l;for(const s in o)if(!t.call(e.properties.series.properties,s))return r.errors=[{instancePath:i+"/series",schemaPath:"#/properties/series/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(a===l){if(void 0!==o.modules){let e=o.modules;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/modules",schemaPath:"#/properties/series/properties/modules/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}var d=t===l;}else d=true;if(d){if(void 0!==o.components){let e=o.components;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/components",schemaPath:"#/properties/series/properties/components/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/components/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.operators){let e=o.operators;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/operators",schemaPath:"#/properties/series/properties/operators/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/operators/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.graphs){let e=o.graphs;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/graphs",schemaPath:"#/properties/series/properties/graphs/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/graphs/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.kernels){let e=o.kernels;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/kernels",schemaPath:"#/properties/series/properties/kernels/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.steps){let e=o.steps;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/steps",schemaPath:"#/properties/series/properties/steps/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/steps/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.stepLeaks){let e=o.stepLeaks;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/stepLeaks",schemaPath:"#/properties/series/properties/stepLeaks/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/stepLeaks/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.unfreed){let e=o.unfreed;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/unfreed",schemaPath:"#/properties/series/properties/unfreed/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/unfreed/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.owners){let e=o.owners;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/owners",schemaPath:"#/properties/series/properties/owners/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/owners/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.opFootprint){let e=o.opFootprint;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/opFootprint",schemaPath:"#/properties/series/properties/opFootprint/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/opFootprint/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.inefficient){let e=o.inefficient;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/inefficient",schemaPath:"#/properties/series/properties/inefficient/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/inefficient/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.allocator){let e=o.allocator;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/allocator",schemaPath:"#/properties/series/properties/allocator/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/allocator/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.allocationSites){let e=o.allocationSites;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/allocationSites",schemaPath:"#/properties/series/properties/allocationSites/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/allocationSites/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d){if(void 0!==o.ooms){let e=o.ooms;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/ooms",schemaPath:"#/properties/series/properties/ooms/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/ooms/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;if(d)if(void 0!==o.oomModules){let e=o.oomModules;const t=l;if(l===t){if(!e||"object"!=typeof e||Array.isArray(e))return r.errors=[{instancePath:i+"/series/oomModules",schemaPath:"#/properties/series/properties/oomModules/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in e){const r=l;if(s(e[t],{instancePath:i+"/series/oomModules/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:e,parentDataProperty:t,rootData:m})||(c=null===c?s.errors:c.concat(s.errors),l=c.length),!(r===l))break}}d=t===l;}else d=true;}}}}}}}}}}}}}}}}u=n===l;}else u=true;if(u)if(void 0!==a.meta){const e=l;o(a.meta,{instancePath:i+"/meta",parentData:a,parentDataProperty:"meta",rootData:m})||(c=null===c?o.errors:c.concat(o.errors),l=c.length);u=e===l;}else u=true;}}}}}}}return r.errors=c,0===l};const e={properties:{series:{properties:{modules:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},components:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},operators:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},graphs:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},kernels:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},steps:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},stepLeaks:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},unfreed:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},owners:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},opFootprint:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},inefficient:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},allocator:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},allocationSites:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},ooms:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},oomModules:{type:"object",additionalProperties:{$ref:"#/definitions/series"}}}}}},t=Object.prototype.hasOwnProperty,r={properties:{axis:{enum:["time","step","trace"]}}};function s(e,{instancePath:t="",parentData:a,parentDataProperty:i,rootData:o=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return s.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let a;if(void 0===e.axis&&(a="axis")||void 0===e.width&&(a="width")||void 0===e.points&&(a="points"))return s.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:a},message:"must have required property '"+a+"'"}],false;{for(const r in e)if("axis"!==r&&"width"!==r&&"points"!==r)return s.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.axis){let a=e.axis;const i=0;if("string"!=typeof a)return s.errors=[{instancePath:t+"/axis",schemaPath:"#/properties/axis/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("time"!==a&&"step"!==a&&"trace"!==a)return s.errors=[{instancePath:t+"/axis",schemaPath:"#/properties/axis/enum",keyword:"enum",params:{allowedValues:r.properties.axis.enum},message:"must be equal to one of the allowed values"}],false;var n=0===i;}else n=true;if(n){if(void 0!==e.width){let r=e.width;const a=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return s.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return s.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<1||isNaN(r))return s.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/minimum",keyword:"minimum",params:{comparison:">=",limit:1},message:"must be >= 1"}],false}n=0===a;}else n=true;if(n)if(void 0!==e.points){let r=e.points;const a=0;{if(!Array.isArray(r))return s.errors=[{instancePath:t+"/points",schemaPath:"#/properties/points/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>200)return s.errors=[{instancePath:t+"/points",schemaPath:"#/properties/points/maxItems",keyword:"maxItems",params:{limit:200},message:"must NOT have more than 200 items"}],false;{const e=r.length;for(let a=0;a<e;a++){let e=r[a];{if(!Array.isArray(e))return s.errors=[{instancePath:t+"/points/"+a,schemaPath:"#/properties/points/items/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(e.length>2)return s.errors=[{instancePath:t+"/points/"+a,schemaPath:"#/properties/points/items/maxItems",keyword:"maxItems",params:{limit:2},message:"must NOT have more than 2 items"}],false;if(e.length<2)return s.errors=[{instancePath:t+"/points/"+a,schemaPath:"#/properties/points/items/minItems",keyword:"minItems",params:{limit:2},message:"must NOT have fewer than 2 items"}],false;if(!(e.length<=2))return s.errors=[{instancePath:t+"/points/"+a,schemaPath:"#/properties/points/items/additionalItems",keyword:"additionalItems",params:{limit:2},message:"must NOT have more than 2 items"}],false;{const r=e.length;if(r>0){let r=e[0];const i=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return s.errors=[{instancePath:t+"/points/"+a+"/0",schemaPath:"#/properties/points/items/items/0/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return s.errors=[{instancePath:t+"/points/"+a+"/0",schemaPath:"#/properties/points/items/items/0/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<-9007199254740991||isNaN(r))return s.errors=[{instancePath:t+"/points/"+a+"/0",schemaPath:"#/properties/points/items/items/0/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}var p=0===i;}if(p&&r>1){let r=e[1];const i=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return s.errors=[{instancePath:t+"/points/"+a+"/1",schemaPath:"#/properties/points/items/items/1/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return s.errors=[{instancePath:t+"/points/"+a+"/1",schemaPath:"#/properties/points/items/items/1/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<-9007199254740991||isNaN(r))return s.errors=[{instancePath:t+"/points/"+a+"/1",schemaPath:"#/properties/points/items/items/1/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}p=0===i;}}}}}}n=0===a;}else n=true;}}}}return s.errors=null,true}function a(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:i=e}={}){if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return a.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return a.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return a.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return a.errors=null,true}function i(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){return "string"!=typeof e?(i.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"string"},message:"must be string"}],false):(i.errors=null,true)}function o(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:n=e}={}){let p=null,m=0;if(0===m){if(!e||"object"!=typeof e||Array.isArray(e))return o.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.files&&(r="files")||void 0===e.records&&(r="records")||void 0===e.skipped&&(r="skipped")||void 0===e.allocFailures&&(r="allocFailures"))return o.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=m;for(const r in e)if("files"!==r&&"records"!==r&&"skipped"!==r&&"allocFailures"!==r&&"allocFailureSites"!==r&&"nodes"!==r)return o.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===m){if(void 0!==e.files){const r=m;a(e.files,{instancePath:t+"/files",parentData:e,parentDataProperty:"files",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);var c=r===m;}else c=true;if(c){if(void 0!==e.records){const r=m;a(e.records,{instancePath:t+"/records",parentData:e,parentDataProperty:"records",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);c=r===m;}else c=true;if(c){if(void 0!==e.skipped){const r=m;a(e.skipped,{instancePath:t+"/skipped",parentData:e,parentDataProperty:"skipped",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);c=r===m;}else c=true;if(c){if(void 0!==e.allocFailures){let r=e.allocFailures;const s=m;if(m===s){if(!r||"object"!=typeof r||Array.isArray(r))return o.errors=[{instancePath:t+"/allocFailures",schemaPath:"#/properties/allocFailures/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){const s=m;if(a(r[e],{instancePath:t+"/allocFailures/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:e,rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length),!(s===m))break}}c=s===m;}else c=true;if(c){if(void 0!==e.allocFailureSites){let r=e.allocFailureSites;const s=m;if(m===s){if(!r||"object"!=typeof r||Array.isArray(r))return o.errors=[{instancePath:t+"/allocFailureSites",schemaPath:"#/properties/allocFailureSites/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const c=m;if(m===c){if(!Array.isArray(s))return o.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/allocFailureSites/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const r=s.length;for(let c=0;c<r;c++){let r=s[c];const u=m;if(m===u){if(!r||"object"!=typeof r||Array.isArray(r))return o.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===r.file&&(s="file")||void 0===r.line&&(s="line")||void 0===r.text&&(s="text"))return o.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=m;for(const s in r)if("file"!==s&&"line"!==s&&"text"!==s)return o.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===m){if(void 0!==r.file){const s=m;i(r.file,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c+"/file",parentData:r,parentDataProperty:"file",rootData:n})||(p=null===p?i.errors:p.concat(i.errors),m=p.length);var l=s===m;}else l=true;if(l){if(void 0!==r.line){const s=m;a(r.line,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c+"/line",parentData:r,parentDataProperty:"line",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);l=s===m;}else l=true;if(l)if(void 0!==r.text){const s=m;i(r.text,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+c+"/text",parentData:r,parentDataProperty:"text",rootData:n})||(p=null===p?i.errors:p.concat(i.errors),m=p.length);l=s===m;}else l=true;}}}}}if(!(u===m))break}}}if(!(c===m))break}}c=s===m;}else c=true;if(c)if(void 0!==e.nodes){let r=e.nodes;const s=m;if(m===s){if(!r||"object"!=typeof r||Array.isArray(r))return o.errors=[{instancePath:t+"/nodes",schemaPath:"#/properties/nodes/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const c=m;if(m===c){if(!s||"object"!=typeof s||Array.isArray(s))return o.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===s.devices&&(r="devices")||void 0===s.files&&(r="files")||void 0===s.records&&(r="records")||void 0===s.skipped&&(r="skipped")||void 0===s.environment&&(r="environment"))return o.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=m;for(const r in s)if("devices"!==r&&"files"!==r&&"records"!==r&&"skipped"!==r&&"environment"!==r)return o.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===m){if(void 0!==s.devices){let r=s.devices;const a=m;if(m===a){if(!Array.isArray(r))return o.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices",schemaPath:"#/properties/nodes/additionalProperties/properties/devices/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const s=r.length;for(let a=0;a<s;a++){const s=m;if(i(r[a],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices/"+a,parentData:r,parentDataProperty:a,rootData:n})||(p=null===p?i.errors:p.concat(i.errors),m=p.length),!(s===m))break}}}var u=a===m;}else u=true;if(u){if(void 0!==s.files){const r=m;a(s.files,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/files",parentData:s,parentDataProperty:"files",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);u=r===m;}else u=true;if(u){if(void 0!==s.records){const r=m;a(s.records,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/records",parentData:s,parentDataProperty:"records",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);u=r===m;}else u=true;if(u){if(void 0!==s.skipped){const r=m;a(s.skipped,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/skipped",parentData:s,parentDataProperty:"skipped",rootData:n})||(p=null===p?a.errors:p.concat(a.errors),m=p.length);u=r===m;}else u=true;if(u)if(void 0!==s.environment){let r=s.environment;const a=m;if(m===a){if(!r||"object"!=typeof r||Array.isArray(r))return o.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment",schemaPath:"#/properties/nodes/additionalProperties/properties/environment/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const s in r){const a=m;if(i(r[s],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment/"+s.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:s,rootData:n})||(p=null===p?i.errors:p.concat(i.errors),m=p.length),!(a===m))break}}u=a===m;}else u=true;}}}}}}}if(!(c===m))break}}c=s===m;}else c=true;}}}}}}}}return o.errors=p,0===m}const check_1bed73b29b075973d37c814ad2c2c023=function e(r,{instancePath:s="",parentData:a,parentDataProperty:i,rootData:o=r}={}){let m=null,c=0;if(0===c){if(!r||"object"!=typeof r||Array.isArray(r))return e.errors=[{instancePath:s,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let a;if(void 0===r.version&&(a="version")||void 0===r.sections&&(a="sections"))return e.errors=[{instancePath:s,schemaPath:"#/required",keyword:"required",params:{missingProperty:a},message:"must have required property '"+a+"'"}],false;{const a=c;for(const t in r)if("$schema"!==t&&"version"!==t&&"sections"!==t&&"series"!==t&&"meta"!==t&&"source"!==t)return e.errors=[{instancePath:s,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:t},message:"must NOT have additional properties"}],false;if(a===c){if(void 0!==r.$schema){const t=c;if("string"!=typeof r.$schema)return e.errors=[{instancePath:s+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var u=t===c;}else u=true;if(u){if(void 0!==r.version){const t=c;if(2!==r.version)return e.errors=[{instancePath:s+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue:2},message:"must be equal to constant"}],false;u=t===c;}else u=true;if(u){if(void 0!==r.sections){let t=r.sections;const a=c;if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/sections",schemaPath:"#/properties/sections/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;u=a===c;}else u=true;if(u){if(void 0!==r.series){let a=r.series;const i=c;if(c===i){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:s+"/series",schemaPath:"#/properties/series/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=c;for(const r in a)if(!t.call(n.properties.series.properties,r))return e.errors=[{instancePath:s+"/series",schemaPath:"#/properties/series/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===c){if(void 0!==a.modules){let t=a.modules;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/modules",schemaPath:"#/properties/series/properties/modules/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/modules/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}var h=r===c;}else h=true;if(h){if(void 0!==a.components){let t=a.components;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/components",schemaPath:"#/properties/series/properties/components/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/components/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.operators){let t=a.operators;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/operators",schemaPath:"#/properties/series/properties/operators/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/operators/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.graphs){let t=a.graphs;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/graphs",schemaPath:"#/properties/series/properties/graphs/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/graphs/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.kernels){let t=a.kernels;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/kernels",schemaPath:"#/properties/series/properties/kernels/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/kernels/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.steps){let t=a.steps;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/steps",schemaPath:"#/properties/series/properties/steps/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/steps/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.stepLeaks){let t=a.stepLeaks;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/stepLeaks",schemaPath:"#/properties/series/properties/stepLeaks/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/stepLeaks/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.unfreed){let t=a.unfreed;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/unfreed",schemaPath:"#/properties/series/properties/unfreed/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/unfreed/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.owners){let t=a.owners;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/owners",schemaPath:"#/properties/series/properties/owners/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/owners/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.opFootprint){let t=a.opFootprint;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/opFootprint",schemaPath:"#/properties/series/properties/opFootprint/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/opFootprint/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.inefficient){let t=a.inefficient;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/inefficient",schemaPath:"#/properties/series/properties/inefficient/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/inefficient/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.allocator){let t=a.allocator;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/allocator",schemaPath:"#/properties/series/properties/allocator/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/allocator/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.allocationSites){let t=a.allocationSites;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/allocationSites",schemaPath:"#/properties/series/properties/allocationSites/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/allocationSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h){if(void 0!==a.ooms){let t=a.ooms;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/ooms",schemaPath:"#/properties/series/properties/ooms/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/ooms/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;if(h)if(void 0!==a.oomModules){let t=a.oomModules;const r=c;if(c===r){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/series/oomModules",schemaPath:"#/properties/series/properties/oomModules/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in t){const r=c;if(p(t[e],{instancePath:s+"/series/oomModules/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(m=null===m?p.errors:m.concat(p.errors),c=m.length),!(r===c))break}}h=r===c;}else h=true;}}}}}}}}}}}}}}}}u=i===c;}else u=true;if(u){if(void 0!==r.meta){const e=c;l(r.meta,{instancePath:s+"/meta",parentData:r,parentDataProperty:"meta",rootData:o})||(m=null===m?l.errors:m.concat(l.errors),c=m.length);u=e===c;}else u=true;if(u)if(void 0!==r.source){const e=c;d(r.source,{instancePath:s+"/source",parentData:r,parentDataProperty:"source",rootData:o})||(m=null===m?d.errors:m.concat(d.errors),c=m.length);u=e===c;}else u=true;}}}}}}}}return e.errors=m,0===c};const n={properties:{series:{properties:{modules:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},components:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},operators:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},graphs:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},kernels:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},steps:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},stepLeaks:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},unfreed:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},owners:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},opFootprint:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},inefficient:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},allocator:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},allocationSites:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},ooms:{type:"object",additionalProperties:{$ref:"#/definitions/series"}},oomModules:{type:"object",additionalProperties:{$ref:"#/definitions/series"}}}}}};function p(e,{instancePath:t="",parentData:s,parentDataProperty:a,rootData:i=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return p.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===e.axis&&(s="axis")||void 0===e.width&&(s="width")||void 0===e.points&&(s="points"))return p.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{for(const r in e)if("axis"!==r&&"width"!==r&&"points"!==r)return p.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.axis){let s=e.axis;const a=0;if("string"!=typeof s)return p.errors=[{instancePath:t+"/axis",schemaPath:"#/properties/axis/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("time"!==s&&"step"!==s&&"trace"!==s)return p.errors=[{instancePath:t+"/axis",schemaPath:"#/properties/axis/enum",keyword:"enum",params:{allowedValues:r.properties.axis.enum},message:"must be equal to one of the allowed values"}],false;var o=0===a;}else o=true;if(o){if(void 0!==e.width){let r=e.width;const s=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return p.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return p.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<1||isNaN(r))return p.errors=[{instancePath:t+"/width",schemaPath:"#/properties/width/minimum",keyword:"minimum",params:{comparison:">=",limit:1},message:"must be >= 1"}],false}o=0===s;}else o=true;if(o)if(void 0!==e.points){let r=e.points;const s=0;{if(!Array.isArray(r))return p.errors=[{instancePath:t+"/points",schemaPath:"#/properties/points/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>200)return p.errors=[{instancePath:t+"/points",schemaPath:"#/properties/points/maxItems",keyword:"maxItems",params:{limit:200},message:"must NOT have more than 200 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];{if(!Array.isArray(e))return p.errors=[{instancePath:t+"/points/"+s,schemaPath:"#/properties/points/items/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(e.length>2)return p.errors=[{instancePath:t+"/points/"+s,schemaPath:"#/properties/points/items/maxItems",keyword:"maxItems",params:{limit:2},message:"must NOT have more than 2 items"}],false;if(e.length<2)return p.errors=[{instancePath:t+"/points/"+s,schemaPath:"#/properties/points/items/minItems",keyword:"minItems",params:{limit:2},message:"must NOT have fewer than 2 items"}],false;if(!(e.length<=2))return p.errors=[{instancePath:t+"/points/"+s,schemaPath:"#/properties/points/items/additionalItems",keyword:"additionalItems",params:{limit:2},message:"must NOT have more than 2 items"}],false;{const r=e.length;if(r>0){let r=e[0];const a=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return p.errors=[{instancePath:t+"/points/"+s+"/0",schemaPath:"#/properties/points/items/items/0/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return p.errors=[{instancePath:t+"/points/"+s+"/0",schemaPath:"#/properties/points/items/items/0/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<-9007199254740991||isNaN(r))return p.errors=[{instancePath:t+"/points/"+s+"/0",schemaPath:"#/properties/points/items/items/0/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}var n=0===a;}if(n&&r>1){let r=e[1];const a=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return p.errors=[{instancePath:t+"/points/"+s+"/1",schemaPath:"#/properties/points/items/items/1/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return p.errors=[{instancePath:t+"/points/"+s+"/1",schemaPath:"#/properties/points/items/items/1/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<-9007199254740991||isNaN(r))return p.errors=[{instancePath:t+"/points/"+s+"/1",schemaPath:"#/properties/points/items/items/1/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}n=0===a;}}}}}}o=0===s;}else o=true;}}}}return p.errors=null,true}function m(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return m.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return m.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return m.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return m.errors=null,true}function c(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){return "string"!=typeof e?(c.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"string"},message:"must be string"}],false):(c.errors=null,true)}function l(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return l.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.files&&(r="files")||void 0===e.records&&(r="records")||void 0===e.skipped&&(r="skipped")||void 0===e.allocFailures&&(r="allocFailures"))return l.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=o;for(const r in e)if("files"!==r&&"records"!==r&&"skipped"!==r&&"allocFailures"!==r&&"allocFailureSites"!==r&&"nodes"!==r)return l.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.files){const r=o;m(e.files,{instancePath:t+"/files",parentData:e,parentDataProperty:"files",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);var n=r===o;}else n=true;if(n){if(void 0!==e.records){const r=o;m(e.records,{instancePath:t+"/records",parentData:e,parentDataProperty:"records",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);n=r===o;}else n=true;if(n){if(void 0!==e.skipped){const r=o;m(e.skipped,{instancePath:t+"/skipped",parentData:e,parentDataProperty:"skipped",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);n=r===o;}else n=true;if(n){if(void 0!==e.allocFailures){let r=e.allocFailures;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return l.errors=[{instancePath:t+"/allocFailures",schemaPath:"#/properties/allocFailures/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){const s=o;if(m(r[e],{instancePath:t+"/allocFailures/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:e,rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length),!(s===o))break}}n=s===o;}else n=true;if(n){if(void 0!==e.allocFailureSites){let r=e.allocFailureSites;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return l.errors=[{instancePath:t+"/allocFailureSites",schemaPath:"#/properties/allocFailureSites/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const n=o;if(o===n){if(!Array.isArray(s))return l.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/allocFailureSites/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const r=s.length;for(let n=0;n<r;n++){let r=s[n];const u=o;if(o===u){if(!r||"object"!=typeof r||Array.isArray(r))return l.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===r.file&&(s="file")||void 0===r.line&&(s="line")||void 0===r.text&&(s="text"))return l.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=o;for(const s in r)if("file"!==s&&"line"!==s&&"text"!==s)return l.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===o){if(void 0!==r.file){const s=o;c(r.file,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/file",parentData:r,parentDataProperty:"file",rootData:a})||(i=null===i?c.errors:i.concat(c.errors),o=i.length);var p=s===o;}else p=true;if(p){if(void 0!==r.line){const s=o;m(r.line,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/line",parentData:r,parentDataProperty:"line",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);p=s===o;}else p=true;if(p)if(void 0!==r.text){const s=o;c(r.text,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/text",parentData:r,parentDataProperty:"text",rootData:a})||(i=null===i?c.errors:i.concat(c.errors),o=i.length);p=s===o;}else p=true;}}}}}if(!(u===o))break}}}if(!(n===o))break}}n=s===o;}else n=true;if(n)if(void 0!==e.nodes){let r=e.nodes;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return l.errors=[{instancePath:t+"/nodes",schemaPath:"#/properties/nodes/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const n=o;if(o===n){if(!s||"object"!=typeof s||Array.isArray(s))return l.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===s.devices&&(r="devices")||void 0===s.files&&(r="files")||void 0===s.records&&(r="records")||void 0===s.skipped&&(r="skipped")||void 0===s.environment&&(r="environment"))return l.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=o;for(const r in s)if("devices"!==r&&"files"!==r&&"records"!==r&&"skipped"!==r&&"environment"!==r)return l.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==s.devices){let r=s.devices;const n=o;if(o===n){if(!Array.isArray(r))return l.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices",schemaPath:"#/properties/nodes/additionalProperties/properties/devices/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const s=r.length;for(let n=0;n<s;n++){const s=o;if(c(r[n],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices/"+n,parentData:r,parentDataProperty:n,rootData:a})||(i=null===i?c.errors:i.concat(c.errors),o=i.length),!(s===o))break}}}var u=n===o;}else u=true;if(u){if(void 0!==s.files){const r=o;m(s.files,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/files",parentData:s,parentDataProperty:"files",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);u=r===o;}else u=true;if(u){if(void 0!==s.records){const r=o;m(s.records,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/records",parentData:s,parentDataProperty:"records",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);u=r===o;}else u=true;if(u){if(void 0!==s.skipped){const r=o;m(s.skipped,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/skipped",parentData:s,parentDataProperty:"skipped",rootData:a})||(i=null===i?m.errors:i.concat(m.errors),o=i.length);u=r===o;}else u=true;if(u)if(void 0!==s.environment){let r=s.environment;const n=o;if(o===n){if(!r||"object"!=typeof r||Array.isArray(r))return l.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment",schemaPath:"#/properties/nodes/additionalProperties/properties/environment/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const s in r){const n=o;if(c(r[s],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment/"+s.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:s,rootData:a})||(i=null===i?c.errors:i.concat(c.errors),o=i.length),!(n===o))break}}u=n===o;}else u=true;}}}}}}}if(!(n===o))break}}n=s===o;}else n=true;}}}}}}}}return l.errors=i,0===o}const u={properties:{runId:{type:["string","integer"]}}};function d(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return d.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;if(void 0!==e.commit){const r=0;if("string"!=typeof e.commit)return d.errors=[{instancePath:t+"/commit",schemaPath:"#/properties/commit/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var i=0===r;}else i=true;if(i){if(void 0!==e.runId){let r=e.runId;const s=0;if("string"!=typeof r&&("number"!=typeof r||r%1||isNaN(r)||!isFinite(r)))return d.errors=[{instancePath:t+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type:u.properties.runId.type},message:"must be string,integer"}],false;i=0===s;}else i=true;if(i){if(void 0!==e.date){const r=0;if("string"!=typeof e.date)return d.errors=[{instancePath:t+"/date",schemaPath:"#/properties/date/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;i=0===r;}else i=true;if(i)if(void 0!==e.repository){const r=0;if("string"!=typeof e.repository)return d.errors=[{instancePath:t+"/repository",schemaPath:"#/properties/repository/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;i=0===r;}else i=true;}}return d.errors=null,true}const check_251ddf7c5a2ddd11f78030fda93f5a41=function e(t,{instancePath:r="",parentData:s,parentDataProperty:a,rootData:i=t}={}){let o=null,n=0;if(0===n){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:r,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===t.version&&(s="version")||void 0===t.modules&&(s="modules")||void 0===t.kernels&&(s="kernels"))return e.errors=[{instancePath:r,schemaPath:"#/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=n;for(const s in t)if("$schema"!==s&&"version"!==s&&"modules"!==s&&"kernels"!==s&&"meta"!==s&&"source"!==s)return e.errors=[{instancePath:r,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===n){if(void 0!==t.$schema){const s=n;if("string"!=typeof t.$schema)return e.errors=[{instancePath:r+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var p=s===n;}else p=true;if(p){if(void 0!==t.version){const s=n;if(1!==t.version)return e.errors=[{instancePath:r+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue:1},message:"must be equal to constant"}],false;p=s===n;}else p=true;if(p){if(void 0!==t.modules){let s=t.modules;const a=n;if(n===a){if(!s||"object"!=typeof s||Array.isArray(s))return e.errors=[{instancePath:r+"/modules",schemaPath:"#/properties/modules/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in s){let a=s[t];const p=n;if(n===p){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/modules/additionalProperties/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===a.peak&&(s="peak")||void 0===a.current&&(s="current")||void 0===a.allocs&&(s="allocs")||void 0===a.frees&&(s="frees"))return e.errors=[{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/modules/additionalProperties/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=n;for(const s in a)if("peak"!==s&&"current"!==s&&"allocs"!==s&&"frees"!==s)return e.errors=[{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/modules/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===n){if(void 0!==a.peak){const e=n;h(a.peak,{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/peak",parentData:a,parentDataProperty:"peak",rootData:i})||(o=null===o?h.errors:o.concat(h.errors),n=o.length);var m=e===n;}else m=true;if(m){if(void 0!==a.current){const e=n;h(a.current,{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/current",parentData:a,parentDataProperty:"current",rootData:i})||(o=null===o?h.errors:o.concat(h.errors),n=o.length);m=e===n;}else m=true;if(m){if(void 0!==a.allocs){const e=n;f(a.allocs,{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/allocs",parentData:a,parentDataProperty:"allocs",rootData:i})||(o=null===o?f.errors:o.concat(f.errors),n=o.length);m=e===n;}else m=true;if(m)if(void 0!==a.frees){const e=n;f(a.frees,{instancePath:r+"/modules/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/frees",parentData:a,parentDataProperty:"frees",rootData:i})||(o=null===o?f.errors:o.concat(f.errors),n=o.length);m=e===n;}else m=true;}}}}}}if(!(p===n))break}}p=a===n;}else p=true;if(p){if(void 0!==t.kernels){let s=t.kernels;const a=n;if(n===a){if(!s||"object"!=typeof s||Array.isArray(s))return e.errors=[{instancePath:r+"/kernels",schemaPath:"#/properties/kernels/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in s){let a=s[t];const p=n;if(n===p){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/kernels/additionalProperties/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===a.diff&&(s="diff")||void 0===a.rows&&(s="rows")||void 0===a.added&&(s="added")||void 0===a.removed&&(s="removed")||void 0===a.event&&(s="event"))return e.errors=[{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/kernels/additionalProperties/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=n;for(const s in a)if("diff"!==s&&"rows"!==s&&"added"!==s&&"removed"!==s&&"event"!==s)return e.errors=[{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/kernels/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===n){if(void 0!==a.diff){const e=n;g(a.diff,{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/diff",parentData:a,parentDataProperty:"diff",rootData:i})||(o=null===o?g.errors:o.concat(g.errors),n=o.length);var c=e===n;}else c=true;if(c){if(void 0!==a.rows){const e=n;P(a.rows,{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/rows",parentData:a,parentDataProperty:"rows",rootData:i})||(o=null===o?P.errors:o.concat(P.errors),n=o.length);c=e===n;}else c=true;if(c){if(void 0!==a.added){const e=n;P(a.added,{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/added",parentData:a,parentDataProperty:"added",rootData:i})||(o=null===o?P.errors:o.concat(P.errors),n=o.length);c=e===n;}else c=true;if(c){if(void 0!==a.removed){const e=n;P(a.removed,{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/removed",parentData:a,parentDataProperty:"removed",rootData:i})||(o=null===o?P.errors:o.concat(P.errors),n=o.length);c=e===n;}else c=true;if(c)if(void 0!==a.event){const e=n;v(a.event,{instancePath:r+"/kernels/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/event",parentData:a,parentDataProperty:"event",rootData:i})||(o=null===o?v.errors:o.concat(v.errors),n=o.length);c=e===n;}else c=true;}}}}}}}if(!(p===n))break}}p=a===n;}else p=true;if(p){if(void 0!==t.meta){const e=n;w(t.meta,{instancePath:r+"/meta",parentData:t,parentDataProperty:"meta",rootData:i})||(o=null===o?w.errors:o.concat(w.errors),n=o.length);p=e===n;}else p=true;if(p)if(void 0!==t.source){const e=n;N(t.source,{instancePath:r+"/source",parentData:t,parentDataProperty:"source",rootData:i})||(o=null===o?N.errors:o.concat(N.errors),n=o.length);p=e===n;}else p=true;}}}}}}}}return e.errors=o,0===n};function h(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return h.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return h.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return h.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return h.errors=null,true}const y={type:["integer","null"]};function f(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))&&null!==e)return f.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:y.type},message:"must be integer,null"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return f.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return f.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return f.errors=null,true}function g(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return g.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return g.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<-9007199254740991||isNaN(e))return g.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}return g.errors=null,true}function P(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return P.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return P.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return P.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return P.errors=null,true}const b={type:["string","null"]};function v(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){return "string"!=typeof e&&null!==e?(v.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:b.type},message:"must be string,null"}],false):(v.errors=null,true)}function k(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){return "string"!=typeof e?(k.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"string"},message:"must be string"}],false):(k.errors=null,true)}function w(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return w.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.files&&(r="files")||void 0===e.records&&(r="records")||void 0===e.skipped&&(r="skipped")||void 0===e.allocFailures&&(r="allocFailures"))return w.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=o;for(const r in e)if("files"!==r&&"records"!==r&&"skipped"!==r&&"allocFailures"!==r&&"allocFailureSites"!==r&&"nodes"!==r)return w.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.files){const r=o;P(e.files,{instancePath:t+"/files",parentData:e,parentDataProperty:"files",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);var n=r===o;}else n=true;if(n){if(void 0!==e.records){const r=o;P(e.records,{instancePath:t+"/records",parentData:e,parentDataProperty:"records",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);n=r===o;}else n=true;if(n){if(void 0!==e.skipped){const r=o;P(e.skipped,{instancePath:t+"/skipped",parentData:e,parentDataProperty:"skipped",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);n=r===o;}else n=true;if(n){if(void 0!==e.allocFailures){let r=e.allocFailures;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return w.errors=[{instancePath:t+"/allocFailures",schemaPath:"#/properties/allocFailures/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){const s=o;if(P(r[e],{instancePath:t+"/allocFailures/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:e,rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length),!(s===o))break}}n=s===o;}else n=true;if(n){if(void 0!==e.allocFailureSites){let r=e.allocFailureSites;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return w.errors=[{instancePath:t+"/allocFailureSites",schemaPath:"#/properties/allocFailureSites/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const n=o;if(o===n){if(!Array.isArray(s))return w.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/allocFailureSites/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const r=s.length;for(let n=0;n<r;n++){let r=s[n];const m=o;if(o===m){if(!r||"object"!=typeof r||Array.isArray(r))return w.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===r.file&&(s="file")||void 0===r.line&&(s="line")||void 0===r.text&&(s="text"))return w.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=o;for(const s in r)if("file"!==s&&"line"!==s&&"text"!==s)return w.errors=[{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n,schemaPath:"#/properties/allocFailureSites/additionalProperties/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===o){if(void 0!==r.file){const s=o;k(r.file,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/file",parentData:r,parentDataProperty:"file",rootData:a})||(i=null===i?k.errors:i.concat(k.errors),o=i.length);var p=s===o;}else p=true;if(p){if(void 0!==r.line){const s=o;P(r.line,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/line",parentData:r,parentDataProperty:"line",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);p=s===o;}else p=true;if(p)if(void 0!==r.text){const s=o;k(r.text,{instancePath:t+"/allocFailureSites/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+n+"/text",parentData:r,parentDataProperty:"text",rootData:a})||(i=null===i?k.errors:i.concat(k.errors),o=i.length);p=s===o;}else p=true;}}}}}if(!(m===o))break}}}if(!(n===o))break}}n=s===o;}else n=true;if(n)if(void 0!==e.nodes){let r=e.nodes;const s=o;if(o===s){if(!r||"object"!=typeof r||Array.isArray(r))return w.errors=[{instancePath:t+"/nodes",schemaPath:"#/properties/nodes/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const e in r){let s=r[e];const n=o;if(o===n){if(!s||"object"!=typeof s||Array.isArray(s))return w.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===s.devices&&(r="devices")||void 0===s.files&&(r="files")||void 0===s.records&&(r="records")||void 0===s.skipped&&(r="skipped")||void 0===s.environment&&(r="environment"))return w.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=o;for(const r in s)if("devices"!==r&&"files"!==r&&"records"!==r&&"skipped"!==r&&"environment"!==r)return w.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/nodes/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==s.devices){let r=s.devices;const n=o;if(o===n){if(!Array.isArray(r))return w.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices",schemaPath:"#/properties/nodes/additionalProperties/properties/devices/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const s=r.length;for(let n=0;n<s;n++){const s=o;if(k(r[n],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/devices/"+n,parentData:r,parentDataProperty:n,rootData:a})||(i=null===i?k.errors:i.concat(k.errors),o=i.length),!(s===o))break}}}var m=n===o;}else m=true;if(m){if(void 0!==s.files){const r=o;P(s.files,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/files",parentData:s,parentDataProperty:"files",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);m=r===o;}else m=true;if(m){if(void 0!==s.records){const r=o;P(s.records,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/records",parentData:s,parentDataProperty:"records",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);m=r===o;}else m=true;if(m){if(void 0!==s.skipped){const r=o;P(s.skipped,{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/skipped",parentData:s,parentDataProperty:"skipped",rootData:a})||(i=null===i?P.errors:i.concat(P.errors),o=i.length);m=r===o;}else m=true;if(m)if(void 0!==s.environment){let r=s.environment;const n=o;if(o===n){if(!r||"object"!=typeof r||Array.isArray(r))return w.errors=[{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment",schemaPath:"#/properties/nodes/additionalProperties/properties/environment/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const s in r){const n=o;if(k(r[s],{instancePath:t+"/nodes/"+e.replace(/~/g,"~0").replace(/\//g,"~1")+"/environment/"+s.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:r,parentDataProperty:s,rootData:a})||(i=null===i?k.errors:i.concat(k.errors),o=i.length),!(n===o))break}}m=n===o;}else m=true;}}}}}}}if(!(n===o))break}}n=s===o;}else n=true;}}}}}}}}return w.errors=i,0===o}function N(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return N.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;if(void 0!==e.commit){const r=0;if("string"!=typeof e.commit)return N.errors=[{instancePath:t+"/commit",schemaPath:"#/properties/commit/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var i=0===r;}else i=true;if(i){if(void 0!==e.runId){let r=e.runId;const s=0;if("string"!=typeof r&&("number"!=typeof r||r%1||isNaN(r)||!isFinite(r)))return N.errors=[{instancePath:t+"/runId",schemaPath:"#/properties/runId/type",keyword:"type",params:{type:u.properties.runId.type},message:"must be string,integer"}],false;i=0===s;}else i=true;if(i){if(void 0!==e.date){const r=0;if("string"!=typeof e.date)return N.errors=[{instancePath:t+"/date",schemaPath:"#/properties/date/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;i=0===r;}else i=true;if(i)if(void 0!==e.repository){const r=0;if("string"!=typeof e.repository)return N.errors=[{instancePath:t+"/repository",schemaPath:"#/properties/repository/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;i=0===r;}else i=true;}}return N.errors=null,true}const check_7ccc2bee41544ef5d24b446f56dd6154=function e(r,{instancePath:s="",parentData:a,parentDataProperty:i,rootData:o=r}={}){let n=null,p=0;if(0===p){if(!r||"object"!=typeof r||Array.isArray(r))return e.errors=[{instancePath:s,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const a=p;for(const a in r)if(!t.call(D.properties,a))return e.errors=[{instancePath:s,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:a},message:"must NOT have additional properties"}],false;if(a===p){if(void 0!==r.$schema){const t=p;if("string"!=typeof r.$schema)return e.errors=[{instancePath:s+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;var m=t===p;}else m=true;if(m){if(void 0!==r.modules){const e=p;T(r.modules,{instancePath:s+"/modules",parentData:r,parentDataProperty:"modules",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.components){const e=p;T(r.components,{instancePath:s+"/components",parentData:r,parentDataProperty:"components",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.operators){const e=p;T(r.operators,{instancePath:s+"/operators",parentData:r,parentDataProperty:"operators",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.graphs){const e=p;T(r.graphs,{instancePath:s+"/graphs",parentData:r,parentDataProperty:"graphs",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.kernels){const e=p;T(r.kernels,{instancePath:s+"/kernels",parentData:r,parentDataProperty:"kernels",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.steps){const e=p;T(r.steps,{instancePath:s+"/steps",parentData:r,parentDataProperty:"steps",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.stepLeaks){const e=p;T(r.stepLeaks,{instancePath:s+"/stepLeaks",parentData:r,parentDataProperty:"stepLeaks",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.unfreed){const e=p;T(r.unfreed,{instancePath:s+"/unfreed",parentData:r,parentDataProperty:"unfreed",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.owners){const e=p;T(r.owners,{instancePath:s+"/owners",parentData:r,parentDataProperty:"owners",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.opFootprint){const e=p;T(r.opFootprint,{instancePath:s+"/opFootprint",parentData:r,parentDataProperty:"opFootprint",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.inefficient){const e=p;T(r.inefficient,{instancePath:s+"/inefficient",parentData:r,parentDataProperty:"inefficient",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.allocator){const e=p;T(r.allocator,{instancePath:s+"/allocator",parentData:r,parentDataProperty:"allocator",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.allocationSites){const e=p;T(r.allocationSites,{instancePath:s+"/allocationSites",parentData:r,parentDataProperty:"allocationSites",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.ooms){const e=p;T(r.ooms,{instancePath:s+"/ooms",parentData:r,parentDataProperty:"ooms",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.oomModules){const e=p;T(r.oomModules,{instancePath:s+"/oomModules",parentData:r,parentDataProperty:"oomModules",rootData:o})||(n=null===n?T.errors:n.concat(T.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.onNew){const e=p;O(r.onNew,{instancePath:s+"/onNew",parentData:r,parentDataProperty:"onNew",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.onMissingBaseline){let t=r.onMissingBaseline;const a=p;if("warn"!==t&&"fail"!==t)return e.errors=[{instancePath:s+"/onMissingBaseline",schemaPath:"#/properties/onMissingBaseline/enum",keyword:"enum",params:{allowedValues:D.properties.onMissingBaseline.enum},message:"must be equal to one of the allowed values"}],false;m=a===p;}else m=true;if(m){if(void 0!==r.onMissing){const e=p;O(r.onMissing,{instancePath:s+"/onMissing",parentData:r,parentDataProperty:"onMissing",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.environment){let t=r.environment;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/environment",schemaPath:"#/properties/environment/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("onChange"!==r&&"ignore"!==r)return e.errors=[{instancePath:s+"/environment",schemaPath:"#/properties/environment/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.onChange){const e=p;O(t.onChange,{instancePath:s+"/environment/onChange",parentData:t,parentDataProperty:"onChange",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);var c=e===p;}else c=true;if(c)if(void 0!==t.ignore){let r=t.ignore;const a=p;if(p===a){if(!Array.isArray(r))return e.errors=[{instancePath:s+"/environment/ignore",schemaPath:"#/properties/environment/properties/ignore/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const t=r.length;for(let a=0;a<t;a++){let t=r[a];const i=p;if(p===i){if("string"!=typeof t)return e.errors=[{instancePath:s+"/environment/ignore/"+a,schemaPath:"#/properties/environment/properties/ignore/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)<1)return e.errors=[{instancePath:s+"/environment/ignore/"+a,schemaPath:"#/properties/environment/properties/ignore/items/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}if(!(i===p))break}}}c=a===p;}else c=true;}}}m=a===p;}else m=true;if(m){if(void 0!==r.failOnImprovement){const t=p;if("boolean"!=typeof r.failOnImprovement)return e.errors=[{instancePath:s+"/failOnImprovement",schemaPath:"#/properties/failOnImprovement/type",keyword:"type",params:{type:"boolean"},message:"must be boolean"}],false;m=t===p;}else m=true;if(m){if(void 0!==r.device){const e=p;S(r.device,{instancePath:s+"/device",parentData:r,parentDataProperty:"device",rootData:o})||(n=null===n?S.errors:n.concat(S.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.devices){let t=r.devices;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/devices",schemaPath:"#/properties/devices/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){const t=p;if("string"==typeof r&&!B.test(r)){const e={instancePath:s+"/devices",schemaPath:"#/properties/devices/propertyNames/pattern",keyword:"pattern",params:{pattern:"^dev\\d+$"},message:'must match pattern "^dev\\d+$"',propertyName:r};null===n?n=[e]:n.push(e),p++;}var l=t===p;if(!l){const t={instancePath:s+"/devices",schemaPath:"#/properties/devices/propertyNames",keyword:"propertyNames",params:{propertyName:r},message:"property name must be valid"};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}}if(l)for(const e in t){const r=p;if(S(t[e],{instancePath:s+"/devices/"+e.replace(/~/g,"~0").replace(/\//g,"~1"),parentData:t,parentDataProperty:e,rootData:o})||(n=null===n?S.errors:n.concat(S.errors),p=n.length),!(r===p))break}}m=a===p;}else m=true;if(m){if(void 0!==r.profile){let t=r.profile;const a=p;if("training"!==t&&"inference"!==t)return e.errors=[{instancePath:s+"/profile",schemaPath:"#/properties/profile/enum",keyword:"enum",params:{allowedValues:D.properties.profile.enum},message:"must be equal to one of the allowed values"}],false;m=a===p;}else m=true;if(m){if(void 0!==r.hccl){let t=r.hccl;const a=p,i=p;let c=true;const l=p;if(t&&"object"==typeof t&&!Array.isArray(t)){if(void 0===t.mode&&("mode")){const e={};null===n?n=[e]:n.push(e),p++;}else if(void 0!==t.mode&&"graph"!==t.mode){const e={};null===n?n=[e]:n.push(e),p++;}}var u=l===p;if(p=i,null!==n&&(i?n.length=i:n=null),u){const r=p;if(t&&"object"==typeof t&&!Array.isArray(t)){let r;if(void 0===t.ops&&(r="ops"))return e.errors=[{instancePath:s+"/hccl",schemaPath:"#/properties/hccl/then/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false}c=u=r===p;}if(!c){const t={instancePath:s+"/hccl",schemaPath:"#/properties/hccl/if",keyword:"if",params:{failingKeyword:"then"},message:'must match "then" schema'};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/hccl",schemaPath:"#/properties/hccl/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===t.links&&(r="links"))return e.errors=[{instancePath:s+"/hccl",schemaPath:"#/properties/hccl/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=p;for(const r in t)if("links"!==r&&"mode"!==r&&"ops"!==r&&"domains"!==r&&"buffSize"!==r)return e.errors=[{instancePath:s+"/hccl",schemaPath:"#/properties/hccl/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.links){let r=t.links;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/hccl/links",schemaPath:"#/properties/hccl/properties/links/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<0||isNaN(r)))return e.errors=[{instancePath:s+"/hccl/links",schemaPath:"#/properties/hccl/properties/links/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false;var d=a===p;}else d=true;if(d){if(void 0!==t.mode){let r=t.mode;const a=p;if("single-op"!==r&&"graph"!==r)return e.errors=[{instancePath:s+"/hccl/mode",schemaPath:"#/properties/hccl/properties/mode/enum",keyword:"enum",params:{allowedValues:D.properties.hccl.properties.mode.enum},message:"must be equal to one of the allowed values"}],false;d=a===p;}else d=true;if(d){if(void 0!==t.ops){let r=t.ops;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/hccl/ops",schemaPath:"#/properties/hccl/properties/ops/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<0||isNaN(r)))return e.errors=[{instancePath:s+"/hccl/ops",schemaPath:"#/properties/hccl/properties/ops/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false;d=a===p;}else d=true;if(d){if(void 0!==t.domains){let r=t.domains;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/hccl/domains",schemaPath:"#/properties/hccl/properties/domains/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<0||isNaN(r)))return e.errors=[{instancePath:s+"/hccl/domains",schemaPath:"#/properties/hccl/properties/domains/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false;d=a===p;}else d=true;if(d)if(void 0!==t.buffSize){const e=p;F(t.buffSize,{instancePath:s+"/hccl/buffSize",parentData:t,parentDataProperty:"buffSize",rootData:o})||(n=null===n?F.errors:n.concat(F.errors),p=n.length);d=e===p;}else d=true;}}}}}}}m=a===p;}else m=true;if(m){if(void 0!==r.reference){let t=r.reference;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/reference",schemaPath:"#/properties/reference/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("factor"!==r)return e.errors=[{instancePath:s+"/reference",schemaPath:"#/properties/reference/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p&&void 0!==t.factor){let r=t.factor;if(p===p){if("number"!=typeof r||!isFinite(r))return e.errors=[{instancePath:s+"/reference/factor",schemaPath:"#/properties/reference/properties/factor/type",keyword:"type",params:{type:"number"},message:"must be number"}],false;if(r<=0||isNaN(r))return e.errors=[{instancePath:s+"/reference/factor",schemaPath:"#/properties/reference/properties/factor/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison:">",limit:0},message:"must be > 0"}],false}}}}m=a===p;}else m=true;if(m){if(void 0!==r.leaks){let t=r.leaks;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/leaks",schemaPath:"#/properties/leaks/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("count"!==r&&"percent"!==r)return e.errors=[{instancePath:s+"/leaks",schemaPath:"#/properties/leaks/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.count){let r=t.count;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/leaks/count",schemaPath:"#/properties/leaks/properties/count/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<0||isNaN(r)))return e.errors=[{instancePath:s+"/leaks/count",schemaPath:"#/properties/leaks/properties/count/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false;var h=a===p;}else h=true;if(h)if(void 0!==t.percent){let r=t.percent;const a=p;if(p===a){if("number"!=typeof r||!isFinite(r))return e.errors=[{instancePath:s+"/leaks/percent",schemaPath:"#/properties/leaks/properties/percent/type",keyword:"type",params:{type:"number"},message:"must be number"}],false;if(r<0||isNaN(r))return e.errors=[{instancePath:s+"/leaks/percent",schemaPath:"#/properties/leaks/properties/percent/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}h=a===p;}else h=true;}}}m=a===p;}else m=true;if(m){if(void 0!==r.imbalance){let t=r.imbalance;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/imbalance",schemaPath:"#/properties/imbalance/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("tolerance"!==r&&"minDevices"!==r)return e.errors=[{instancePath:s+"/imbalance",schemaPath:"#/properties/imbalance/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.tolerance){const e=p;$(t.tolerance,{instancePath:s+"/imbalance/tolerance",parentData:t,parentDataProperty:"tolerance",rootData:o})||(n=null===n?$.errors:n.concat($.errors),p=n.length);var y=e===p;}else y=true;if(y)if(void 0!==t.minDevices){let r=t.minDevices;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/imbalance/minDevices",schemaPath:"#/properties/imbalance/properties/minDevices/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<2||isNaN(r)))return e.errors=[{instancePath:s+"/imbalance/minDevices",schemaPath:"#/properties/imbalance/properties/minDevices/minimum",keyword:"minimum",params:{comparison:">=",limit:2},message:"must be >= 2"}],false;y=a===p;}else y=true;}}}m=a===p;}else m=true;if(m){if(void 0!==r.baselineUpdateLabel){let t=r.baselineUpdateLabel;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/baselineUpdateLabel",schemaPath:"#/properties/baselineUpdateLabel/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>50)return e.errors=[{instancePath:s+"/baselineUpdateLabel",schemaPath:"#/properties/baselineUpdateLabel/maxLength",keyword:"maxLength",params:{limit:50},message:"must NOT have more than 50 characters"}],false;if(x(t)<1)return e.errors=[{instancePath:s+"/baselineUpdateLabel",schemaPath:"#/properties/baselineUpdateLabel/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}m=a===p;}else m=true;if(m){if(void 0!==r.history){let t=r.history;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/history",schemaPath:"#/properties/history/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("window"!==r&&"minPoints"!==r&&"ceiling"!==r)return e.errors=[{instancePath:s+"/history",schemaPath:"#/properties/history/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.window){let r=t.window;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/history/window",schemaPath:"#/properties/history/properties/window/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)){if(r>1e3||isNaN(r))return e.errors=[{instancePath:s+"/history/window",schemaPath:"#/properties/history/properties/window/maximum",keyword:"maximum",params:{comparison:"<=",limit:1e3},message:"must be <= 1000"}],false;if(r<2||isNaN(r))return e.errors=[{instancePath:s+"/history/window",schemaPath:"#/properties/history/properties/window/minimum",keyword:"minimum",params:{comparison:">=",limit:2},message:"must be >= 2"}],false}var f=a===p;}else f=true;if(f){if(void 0!==t.minPoints){let r=t.minPoints;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/history/minPoints",schemaPath:"#/properties/history/properties/minPoints/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)){if(r>1e3||isNaN(r))return e.errors=[{instancePath:s+"/history/minPoints",schemaPath:"#/properties/history/properties/minPoints/maximum",keyword:"maximum",params:{comparison:"<=",limit:1e3},message:"must be <= 1000"}],false;if(r<2||isNaN(r))return e.errors=[{instancePath:s+"/history/minPoints",schemaPath:"#/properties/history/properties/minPoints/minimum",keyword:"minimum",params:{comparison:">=",limit:2},message:"must be >= 2"}],false}f=a===p;}else f=true;if(f)if(void 0!==t.ceiling){const e=p;$(t.ceiling,{instancePath:s+"/history/ceiling",parentData:t,parentDataProperty:"ceiling",rootData:o})||(n=null===n?$.errors:n.concat($.errors),p=n.length);f=e===p;}else f=true;}}}}m=a===p;}else m=true;if(m){if(void 0!==r.growth){let t=r.growth;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/growth",schemaPath:"#/properties/growth/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("warmupPercent"!==r&&"tolerance"!==r&&"warmupSteps"!==r&&"perStep"!==r&&"minWindows"!==r)return e.errors=[{instancePath:s+"/growth",schemaPath:"#/properties/growth/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.warmupPercent){let r=t.warmupPercent;const a=p;if(p===a){if("number"!=typeof r||!isFinite(r))return e.errors=[{instancePath:s+"/growth/warmupPercent",schemaPath:"#/properties/growth/properties/warmupPercent/type",keyword:"type",params:{type:"number"},message:"must be number"}],false;if(r>90||isNaN(r))return e.errors=[{instancePath:s+"/growth/warmupPercent",schemaPath:"#/properties/growth/properties/warmupPercent/maximum",keyword:"maximum",params:{comparison:"<=",limit:90},message:"must be <= 90"}],false;if(r<0||isNaN(r))return e.errors=[{instancePath:s+"/growth/warmupPercent",schemaPath:"#/properties/growth/properties/warmupPercent/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}var g=a===p;}else g=true;if(g){if(void 0!==t.tolerance){const e=p;$(t.tolerance,{instancePath:s+"/growth/tolerance",parentData:t,parentDataProperty:"tolerance",rootData:o})||(n=null===n?$.errors:n.concat($.errors),p=n.length);g=e===p;}else g=true;if(g){if(void 0!==t.warmupSteps){let r=t.warmupSteps;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/growth/warmupSteps",schemaPath:"#/properties/growth/properties/warmupSteps/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<0||isNaN(r)))return e.errors=[{instancePath:s+"/growth/warmupSteps",schemaPath:"#/properties/growth/properties/warmupSteps/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false;g=a===p;}else g=true;if(g){if(void 0!==t.perStep){const e=p;F(t.perStep,{instancePath:s+"/growth/perStep",parentData:t,parentDataProperty:"perStep",rootData:o})||(n=null===n?F.errors:n.concat(F.errors),p=n.length);g=e===p;}else g=true;if(g)if(void 0!==t.minWindows){let r=t.minWindows;const a=p;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return e.errors=[{instancePath:s+"/growth/minWindows",schemaPath:"#/properties/growth/properties/minWindows/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof r&&isFinite(r)&&(r<2||isNaN(r)))return e.errors=[{instancePath:s+"/growth/minWindows",schemaPath:"#/properties/growth/properties/minWindows/minimum",keyword:"minimum",params:{comparison:">=",limit:2},message:"must be >= 2"}],false;g=a===p;}else g=true;}}}}}}m=a===p;}else m=true;if(m){if(void 0!==r.fragmentation){let t=r.fragmentation;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/fragmentation",schemaPath:"#/properties/fragmentation/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in t)if("percent"!==r&&"bytes"!==r)return e.errors=[{instancePath:s+"/fragmentation",schemaPath:"#/properties/fragmentation/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==t.percent){let r=t.percent;const a=p;if(p===a){if("number"!=typeof r||!isFinite(r))return e.errors=[{instancePath:s+"/fragmentation/percent",schemaPath:"#/properties/fragmentation/properties/percent/type",keyword:"type",params:{type:"number"},message:"must be number"}],false;if(r>100||isNaN(r))return e.errors=[{instancePath:s+"/fragmentation/percent",schemaPath:"#/properties/fragmentation/properties/percent/maximum",keyword:"maximum",params:{comparison:"<=",limit:100},message:"must be <= 100"}],false;if(r<0||isNaN(r))return e.errors=[{instancePath:s+"/fragmentation/percent",schemaPath:"#/properties/fragmentation/properties/percent/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}var P=a===p;}else P=true;if(P)if(void 0!==t.bytes){const e=p;F(t.bytes,{instancePath:s+"/fragmentation/bytes",parentData:t,parentDataProperty:"bytes",rootData:o})||(n=null===n?F.errors:n.concat(F.errors),p=n.length);P=e===p;}else P=true;}}}m=a===p;}else m=true;if(m)if(void 0!==r.verdicts){let a=r.verdicts;const i=p;if(p===i){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:s+"/verdicts",schemaPath:"#/properties/verdicts/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in a)if(!t.call(D.properties.verdicts.properties,r))return e.errors=[{instancePath:s+"/verdicts",schemaPath:"#/properties/verdicts/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==a["over-capacity"]){const e=p;O(a["over-capacity"],{instancePath:s+"/verdicts/over-capacity",parentData:a,parentDataProperty:"over-capacity",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);var b=e===p;}else b=true;if(b){if(void 0!==a["low-headroom"]){const e=p;O(a["low-headroom"],{instancePath:s+"/verdicts/low-headroom",parentData:a,parentDataProperty:"low-headroom",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a["alloc-failure"]){const e=p;O(a["alloc-failure"],{instancePath:s+"/verdicts/alloc-failure",parentData:a,parentDataProperty:"alloc-failure",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a.oom){const e=p;O(a.oom,{instancePath:s+"/verdicts/oom",parentData:a,parentDataProperty:"oom",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a.fragmented){const e=p;O(a.fragmented,{instancePath:s+"/verdicts/fragmented",parentData:a,parentDataProperty:"fragmented",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a["leak-suspect"]){const e=p;O(a["leak-suspect"],{instancePath:s+"/verdicts/leak-suspect",parentData:a,parentDataProperty:"leak-suspect",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a["step-leak"]){const e=p;O(a["step-leak"],{instancePath:s+"/verdicts/step-leak",parentData:a,parentDataProperty:"step-leak",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a["above-reference"]){const e=p;O(a["above-reference"],{instancePath:s+"/verdicts/above-reference",parentData:a,parentDataProperty:"above-reference",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b){if(void 0!==a.imbalance){const e=p;O(a.imbalance,{instancePath:s+"/verdicts/imbalance",parentData:a,parentDataProperty:"imbalance",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;if(b)if(void 0!==a.growing){const e=p;O(a.growing,{instancePath:s+"/verdicts/growing",parentData:a,parentDataProperty:"growing",rootData:o})||(n=null===n?O.errors:n.concat(O.errors),p=n.length);b=e===p;}else b=true;}}}}}}}}}}}m=i===p;}else m=true;}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}}return e.errors=n,0===p};const D={properties:{$schema:{type:"string",description:"Path or URL of this schema, for editors."},modules:{$ref:"#/definitions/kind",description:'Modules: Module memory statistics by key, e.g. DEV_MEM/dev0/APP or SVM_MEM/RUNTIME; the profiler\'s npu_module_mem as NPU_MODULE_MEM/dev0/HCCL. Keys like DEV_MEM/dev0/APP; compares `peak`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},components:{$ref:"#/definitions/kind",description:'Components: Peak memory per device, component and figure from the profilers, e.g. dev0/PTA/reserved (torch_npu memory_record: allocated, reserved, active) or dev0/APP/hbm (msprof npu_mem: hbm, ddr). Keys like dev0/PTA/reserved; compares `peak`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},operators:{$ref:"#/definitions/kind",description:'Operators: The largest single allocation per device and operator from the profilers\' operator_memory CSVs, e.g. dev0/aten::empty_strided. Keys like dev0/aten::empty_strided; compares `largest`. Default tolerance: {"percent":10,"bytes":"16MiB"}.'},graphs:{$ref:"#/definitions/kind",description:'Static graphs: Memory of each static graph as the TOTAL row of static_op_mem says (never the sum of its rows), by key <device>/<Model Name>/<Graph ID>, e.g. host/0/1. Keys like host/0/1; compares `size`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},kernels:{$ref:"#/definitions/kind",description:'Kernels: Per-kernel memory_compare aggregates by key, e.g. dev0/aclnnMatmul_0. Keys like dev0/aclnnMatmul_0; compares `diff`. Default tolerance: {"bytes":0}.'},steps:{$ref:"#/definitions/kind",description:'Training steps: Allocated bytes of a framework pool (PTA, ATB, MindSpore) at the peak and at the end of each training step, by key, e.g. dev0/PTA/step3/peak. Keys like dev0/PTA/step3/peak; compares `bytes`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},stepLeaks:{$ref:"#/definitions/kind",description:'Step leaks: Framework-pool blocks allocated during step k >= 2 and still live at the end of step k+1 (msMemScope\'s rule), by device and pool, e.g. dev0/PTA. Keys like dev0/PTA; compares `bytes`. Default tolerance: {"bytes":0}.'},unfreed:{$ref:"#/definitions/kind",description:'Unfreed at the end of tracing: Blocks never freed while tracing, by device, pool and owner (or first call-stack line, or the pool), e.g. dev0/PTA/PTA@weight; growth beyond tolerance is leak-suspect. Keys like dev0/HAL/HAL; compares `bytes`. Default tolerance: {"bytes":"1MiB"}.'},owners:{$ref:"#/definitions/kind",description:'Owners: Peak live bytes per owner bucket (weights, gradients, optimizer, activations, workspace, hccl, cann-other, kv-cache) and device, e.g. dev0/optimizer. Keys like dev0/optimizer; compares `peak`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},opFootprint:{$ref:"#/definitions/kind",description:'Op footprint (ours, not msMemScope\'s): Per device and op, the largest net framework-pool allocation inside one START..END window of the op (ascend-memory-gate\'s metric, not msMemScope\'s), e.g. dev0/torch._ops.aten.mm.default. Keys like dev0/torch._ops.aten.mm.default; compares `net`. Default tolerance: {"percent":5,"bytes":"1MiB"}.'},inefficient:{$ref:"#/definitions/kind",description:'Inefficient memory: Blocks msMemScope marked with inefficient_type, per device and type, e.g. dev0/early_allocation. Keys like dev0/early_allocation; compares `bytes`. Default tolerance: {"percent":10,"bytes":"1MiB"}.'},allocator:{$ref:"#/definitions/kind",description:'Caching allocator: Peak allocated (requested) and peak reserved bytes of torch_npu\'s caching allocator per device, over the memory snapshot\'s trace (at dump time without one), e.g. dev0/allocated, dev0/reserved. Keys like dev0/reserved; compares `peak`. Default tolerance: {"percent":5,"bytes":"64MiB"}.'},allocationSites:{$ref:"#/definitions/kind",description:'Allocation sites: Live requested bytes at the allocated peak of a memory snapshot, by device and the first frame of user code of each block (not torch, torch_npu, the standard library or C++; <unknown> without one), its path relative to the source root, e.g. dev0/model/attention.py:212 forward. Keys like dev0/model/attention.py:212 forward; compares `bytes`. Default tolerance: {"percent":5,"bytes":"64MiB"}.'},ooms:{$ref:"#/definitions/kind",description:"Out-of-memory events: Each `oom` entry of a memory snapshot's trace by device and order, e.g. dev0/oom1, with the allocator's state at that moment. Keys like dev0/oom1; compares `requested`. Default tolerance: {\"bytes\":0}."},oomModules:{$ref:"#/definitions/kind",description:'Modules at the OOM: torch_npu\'s per-module device memory at an OOM (device_<N>_memUsageInfo_<ts>.csv beside the OOM snapshot), e.g. dev0/PTA. Keys like dev0/PTA; compares `peak`. Default tolerance: {"bytes":0}.'},onNew:{$ref:"#/definitions/policy",description:"A key in this run but not in the baseline: warn (default), fail, or ignore."},onMissingBaseline:{enum:["warn","fail"],description:'A first run, with no baseline file or one without keys: warn (default) reports "No baseline yet: N keys recorded" and passes; fail fails the run (exit 1) until a baseline is committed.'},onMissing:{$ref:"#/definitions/policy",description:"A key in the baseline but not in this run: warn (default), fail, or ignore."},environment:{type:"object",additionalProperties:false,description:"The environment behind the numbers (CANN, driver, firmware, chip, torch, torch_npu, memory variables): what a change since the baseline, or nodes that disagree within a run, do to the verdict.",properties:{onChange:{$ref:"#/definitions/policy",description:"warn (default: listed first in the report, the verdict unchanged), fail, or ignore (not compared)."},ignore:{type:"array",items:{type:"string",minLength:1},description:'Items never compared, by exact name, e.g. ["ASCEND_RT_VISIBLE_DEVICES"].'}}},failOnImprovement:{type:"boolean",description:"Fail when a value shrinks beyond its tolerance, so that the baseline gets updated. Default false: improvements pass and are listed."},device:{$ref:"#/definitions/deviceLimits",description:'Physical memory of every device and the headroom it must keep. Each device\'s estimated peak is the larger of (a) the sum of the peaks of all its modules in every device attribute (DEV_MEM, MEM_DEV_*, ...), CACHED sizes included: an UPPER BOUND, since peaks need not coincide; and (b) the process total DEV_PROC_MEM, which is never added to (a). Above `capacity`: over-capacity (fail); less than `minHeadroom` left: low-headroom (warn). Without a capacity there is no headroom verdict. Example: {"capacity": "64GiB", "minHeadroom": "10%"}. Default minHeadroom: 10%.'},devices:{type:"object",description:'Per-device overrides by device name, merged field by field over `device`. Example: {"dev3": {"capacity": "32GiB"}}.',propertyNames:{title:'a device name such as "dev3"',pattern:"^dev\\d+$"},additionalProperties:{$ref:"#/definitions/deviceLimits"}},profile:{enum:["training","inference"],description:'Which reference costs of the CANN troubleshooting guide hold DEV_MEM GE and RUNTIME keys that have no baseline yet: training (PyTorch) GE 3 MiB, RUNTIME 26 MiB; inference (offline model) GE 86 MiB, RUNTIME 18 MiB. The guide\'s "M" is MiB. Unset: the larger of the two (GE 86 MiB, RUNTIME 26 MiB).'},hccl:{type:"object",additionalProperties:false,required:["links"],description:"The HCCL reference cost for DEV_MEM HCCL keys with no baseline yet (CANN guide): links x 4 MiB (single-op) or links x ops x 0.3 MiB (graph), plus domains x 2 x buffSize. Unset: HCCL has no reference.",properties:{links:{title:"a non-negative integer",type:"integer",minimum:0,description:"Communication links of one rank."},mode:{enum:["single-op","graph"],description:"single-op (default) or graph."},ops:{title:"a non-negative integer",type:"integer",minimum:0,description:"Operators in the graph; required in graph mode."},domains:{title:"a non-negative integer",type:"integer",minimum:0,description:"Communication domains (default 1), each with a send and a receive buffer of buffSize."},buffSize:{$ref:"#/definitions/size",description:'HCCL_BUFFSIZE as a size (the variable is in MB, read as MiB): default "200MiB". A plain integer is bytes: write "200MiB", not 200.'}},if:{properties:{mode:{const:"graph"}},required:["mode"]},then:{properties:{ops:true},required:["ops"]}},reference:{type:"object",additionalProperties:false,description:'above-reference (warn) when a key with no baseline peaks above factor x its reference cost: the guide\'s numbers are "about".',properties:{factor:{title:"a positive number",type:"number",exclusiveMinimum:0,description:"Default 2."}}},leaks:{type:"object",additionalProperties:false,description:'leak-suspect (warn) when a module\'s outstanding allocations at exit (alloc_cnt - free_cnt) grow from the baseline by more than EVERY field set: `count` and `percent` of the baseline\'s outstanding count (with 0 outstanding, any growth exceeds the percent). Keys whose records carry no counts are skipped. Replaces the default {"count": 0, "percent": 10} as a whole.',properties:{count:{title:"a non-negative integer",type:"integer",minimum:0},percent:{title:"a non-negative number of percent",type:"number",minimum:0}}},imbalance:{type:"object",additionalProperties:false,description:"imbalance (warn) when a device's peak of a module deviates (either way) from the median of the same attribute and module over at least minDevices devices by more than the tolerance: a pipeline stage or a single leaking rank.",properties:{tolerance:{$ref:"#/definitions/tolerance",description:'Default {"percent": 20, "bytes": "1MiB"}: the deviation must exceed both; replaces the default as a whole.'},minDevices:{title:"an integer of at least 2",type:"integer",minimum:2,description:"Default 3: with two devices the median cannot tell which one is off."}}},baselineUpdateLabel:{type:"string",title:"a label name",minLength:1,maxLength:50,description:"On a pull request, the check gates against the baseline and config of the PR's base commit; the PR's own are used only when it carries this label, which only maintainers (triage permission) can set. Update mode puts it on the PRs it opens. Read from the base commit's config. Default \"memory-baseline-update\"."},history:{type:"object",additionalProperties:false,description:'The noise band (opt-in; needs the history: the Action\'s `history` input, or `check --history FILE`). A key regresses (or improves) only when its change exceeds the larger of its configured tolerance and the spread (max - min) of its last `window` values on the default branch, capped at `ceiling`; the row\'s note says which applied. With fewer than `minPoints` values the configured tolerance applies, and the note says so. Example: {"window": 20, "minPoints": 5}.',properties:{window:{title:"an integer from 2 to 1000",type:"integer",minimum:2,maximum:1e3,description:"Default 20: the last 20 values of the key on the default branch."},minPoints:{title:"an integer from 2 to 1000",type:"integer",minimum:2,maximum:1e3,description:"Default 5: with fewer values, the configured tolerance applies."},ceiling:{$ref:"#/definitions/tolerance",description:'Default {"percent": 10}: the band is never wider than the larger field\'s allowance at the baseline value, so a noisy key cannot hide a real regression.'}}},growth:{type:"object",additionalProperties:false,description:"growing (warn) when a timeline keeps rising: after the warm-up, the Theil-Sen slope of its window peaks projects a rise across the rest of the run above the tolerance, the last half of the windows still rises and the troughs rise too (a saw-tooth within a band, or a rise that then stays flat, is not growth). Step series (one point per training step): at least perStep more per step after warmupSteps. Needs no baseline.",properties:{warmupPercent:{title:"a percent from 0 to 90",type:"number",minimum:0,maximum:90,description:"Default 20: the first 20% of a timeline's run is warm-up and not assessed."},tolerance:{$ref:"#/definitions/tolerance",description:'Default {"percent": 5, "bytes": "64MiB"}: the projected rise must exceed both; percent is of the series\' peak. Replaces the default as a whole.'},warmupSteps:{title:"a non-negative integer",type:"integer",minimum:0,description:"Default 1: step series skip their first step (weights, optimizer state, caches)."},perStep:{$ref:"#/definitions/size",description:'Default "1MiB": the smallest steady rise per step that counts as growing.'},minWindows:{title:"an integer of at least 2",type:"integer",minimum:2,description:"Default 4: fewer window peaks (or steps) after warm-up give no verdict."}}},fragmentation:{type:"object",additionalProperties:false,description:"fragmented (warn) when, at a memory snapshot's allocated peak, the reserved memory the program could not use exceeds both fields: (reserved - allocated) / reserved over `percent`, and reserved - allocated over `bytes`. Allocated counts requested bytes, so the allocator's rounding counts as fragmentation.",properties:{percent:{title:"a percent from 0 to 100",type:"number",minimum:0,maximum:100,description:"Default 30."},bytes:{$ref:"#/definitions/size",description:'Default "1GiB".'}}},verdicts:{type:"object",additionalProperties:false,description:"What each finding does: warn, fail, or ignore (not assessed at all).",properties:{"over-capacity":{$ref:"#/definitions/policy",description:"Default fail."},"low-headroom":{$ref:"#/definitions/policy",description:"Default warn."},"alloc-failure":{$ref:"#/definitions/policy",description:"Allocation failures (halMemAlloc failed) on a device. Default fail: a job that survived an out-of-memory by retrying is not healthy."},oom:{$ref:"#/definitions/policy",description:"An `oom` entry in a memory snapshot's trace (torch_npu's caching allocator could not serve a request), explained as fragmentation or capacity. Default fail."},fragmented:{$ref:"#/definitions/policy",description:"Reserved memory unused at a memory snapshot's allocated peak beyond `fragmentation`. Default warn."},"leak-suspect":{$ref:"#/definitions/policy",description:"Default warn."},"step-leak":{$ref:"#/definitions/policy",description:"msMemScope's leak rule over training steps (a block allocated during step k >= 2 still live at the end of step k+1). Default warn."},"above-reference":{$ref:"#/definitions/policy",description:"Default warn."},imbalance:{$ref:"#/definitions/policy",description:"Default warn."},growing:{$ref:"#/definitions/policy",description:'Memory that keeps rising over a run or from step to step. Default warn; "fail" to stop such a run.'}}}}},x=func3_module.default??func3_module,j={type:["integer","string"]},A=new RegExp("^\\s*\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$","u");function F(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))&&"string"!=typeof e)return F.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:j.type},message:"must be integer,string"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return F.errors=[{instancePath:t,schemaPath:"#/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return F.errors=[{instancePath:t,schemaPath:"#/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}return "string"!=typeof e||A.test(e)?(F.errors=null,true):(F.errors=[{instancePath:t,schemaPath:"#/pattern",keyword:"pattern",params:{pattern:"^\\s*\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"},message:'must match pattern "^\\s*\\d+(\\.\\d+)?\\s*([KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"'}],false)}function $(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return $.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=o;for(const r in e)if("percent"!==r&&"bytes"!==r)return $.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.percent){let r=e.percent;const s=o;if(o===s){if("number"!=typeof r||!isFinite(r))return $.errors=[{instancePath:t+"/percent",schemaPath:"#/properties/percent/type",keyword:"type",params:{type:"number"},message:"must be number"}],false;if(r<0||isNaN(r))return $.errors=[{instancePath:t+"/percent",schemaPath:"#/properties/percent/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}var n=s===o;}else n=true;if(n)if(void 0!==e.bytes){const r=o;F(e.bytes,{instancePath:t+"/bytes",parentData:e,parentDataProperty:"bytes",rootData:a})||(i=null===i?F.errors:i.concat(F.errors),o=i.length);n=r===o;}else n=true;}}}return $.errors=i,0===o}function L(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return L.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.match&&(r="match"))return L.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{const r=o;for(const r in e)if("match"!==r&&"tolerance"!==r&&"budget"!==r&&"ignore"!==r)return L.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.match){let r=e.match;const s=o;if(o===s){if("string"!=typeof r)return L.errors=[{instancePath:t+"/match",schemaPath:"#/properties/match/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)<1)return L.errors=[{instancePath:t+"/match",schemaPath:"#/properties/match/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}var n=s===o;}else n=true;if(n){if(void 0!==e.tolerance){const r=o;$(e.tolerance,{instancePath:t+"/tolerance",parentData:e,parentDataProperty:"tolerance",rootData:a})||(i=null===i?$.errors:i.concat($.errors),o=i.length);n=r===o;}else n=true;if(n){if(void 0!==e.budget){const r=o;F(e.budget,{instancePath:t+"/budget",parentData:e,parentDataProperty:"budget",rootData:a})||(i=null===i?F.errors:i.concat(F.errors),o=i.length);n=r===o;}else n=true;if(n)if(void 0!==e.ignore){const r=o;if("boolean"!=typeof e.ignore)return L.errors=[{instancePath:t+"/ignore",schemaPath:"#/properties/ignore/type",keyword:"type",params:{type:"boolean"},message:"must be boolean"}],false;n=r===o;}else n=true;}}}}}}return L.errors=i,0===o}function T(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return T.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=o;for(const r in e)if("tolerance"!==r&&"rules"!==r)return T.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.tolerance){const r=o;$(e.tolerance,{instancePath:t+"/tolerance",parentData:e,parentDataProperty:"tolerance",rootData:a})||(i=null===i?$.errors:i.concat($.errors),o=i.length);var n=r===o;}else n=true;if(n)if(void 0!==e.rules){let r=e.rules;const s=o;if(o===s){if(!Array.isArray(r))return T.errors=[{instancePath:t+"/rules",schemaPath:"#/properties/rules/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const e=r.length;for(let s=0;s<e;s++){const e=o;if(L(r[s],{instancePath:t+"/rules/"+s,parentData:r,parentDataProperty:s,rootData:a})||(i=null===i?L.errors:i.concat(L.errors),o=i.length),!(e===o))break}}}n=s===o;}else n=true;}}}return T.errors=i,0===o}const q={enum:["warn","fail","ignore"]};function O(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){return "warn"!==e&&"fail"!==e&&"ignore"!==e?(O.errors=[{instancePath:t,schemaPath:"#/enum",keyword:"enum",params:{allowedValues:q.enum},message:"must be equal to one of the allowed values"}],false):(O.errors=null,true)}const M={properties:{minHeadroom:{type:["integer","string"]}}},I=new RegExp("^\\s*\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$","u");function S(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){let i=null,o=0;if(0===o){if(!e||"object"!=typeof e||Array.isArray(e))return S.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=o;for(const r in e)if("capacity"!==r&&"minHeadroom"!==r)return S.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===o){if(void 0!==e.capacity){const r=o;F(e.capacity,{instancePath:t+"/capacity",parentData:e,parentDataProperty:"capacity",rootData:a})||(i=null===i?F.errors:i.concat(F.errors),o=i.length);var n=r===o;}else n=true;if(n)if(void 0!==e.minHeadroom){let r=e.minHeadroom;const s=o;if(("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))&&"string"!=typeof r)return S.errors=[{instancePath:t+"/minHeadroom",schemaPath:"#/properties/minHeadroom/type",keyword:"type",params:{type:M.properties.minHeadroom.type},message:"must be integer,string"}],false;if(o===s){if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return S.errors=[{instancePath:t+"/minHeadroom",schemaPath:"#/properties/minHeadroom/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<0||isNaN(r))return S.errors=[{instancePath:t+"/minHeadroom",schemaPath:"#/properties/minHeadroom/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}if(o===s&&"string"==typeof r&&!I.test(r))return S.errors=[{instancePath:t+"/minHeadroom",schemaPath:"#/properties/minHeadroom/pattern",keyword:"pattern",params:{pattern:"^\\s*\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"},message:'must match pattern "^\\s*\\d+(\\.\\d+)?\\s*(%|[KkMmGgTt][Ii]?[Bb]|[Bb])?\\s*$"'}],false}n=s===o;}else n=true;}}}return S.errors=i,0===o}const B=new RegExp("^dev\\d+$","u");const check_d79ced0dae002084653069ed27d4bba0=function e(r,{instancePath:s="",parentData:a,parentDataProperty:i,rootData:o=r}={}){let n=null,p=0;if(0===p){if(!r||"object"!=typeof r||Array.isArray(r))return e.errors=[{instancePath:s,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let a;if(void 0===r.result&&(a="result")||void 0===r.counts&&(a="counts")||void 0===r.entries&&(a="entries"))return e.errors=[{instancePath:s,schemaPath:"#/required",keyword:"required",params:{missingProperty:a},message:"must have required property '"+a+"'"}],false;{const a=p;for(const t in r)if("result"!==t&&"counts"!==t&&"entries"!==t&&"groups"!==t&&"baselineFile"!==t&&"environment"!==t&&"missingArtifacts"!==t&&"generatedAt"!==t)return e.errors=[{instancePath:s,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:t},message:"must NOT have additional properties"}],false;if(a===p){if(void 0!==r.result){let t=r.result;const a=p;if("string"!=typeof t)return e.errors=[{instancePath:s+"/result",schemaPath:"#/properties/result/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("pass"!==t&&"fail"!==t)return e.errors=[{instancePath:s+"/result",schemaPath:"#/properties/result/enum",keyword:"enum",params:{allowedValues:E.properties.result.enum},message:"must be equal to one of the allowed values"}],false;var m=a===p;}else m=true;if(m){if(void 0!==r.counts){let a=r.counts;const i=p;if(p===i){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:s+"/counts",schemaPath:"#/properties/counts/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in a)if(!t.call(E.properties.counts.properties,r))return e.errors=[{instancePath:s+"/counts",schemaPath:"#/properties/counts/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==a.regressed){let t=a.regressed;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}var c=r===p;}else c=true;if(c){if(void 0!==a["over-budget"]){let t=a["over-budget"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["over-capacity"]){let t=a["over-capacity"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["alloc-failure"]){let t=a["alloc-failure"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.oom){let t=a.oom;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["leak-suspect"]){let t=a["leak-suspect"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["step-leak"]){let t=a["step-leak"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["low-headroom"]){let t=a["low-headroom"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.fragmented){let t=a.fragmented;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["above-reference"]){let t=a["above-reference"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.imbalance){let t=a.imbalance;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.growing){let t=a.growing;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.new){let t=a.new;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.missing){let t=a.missing;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.improved){let t=a.improved;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.ignored){let t=a.ignored;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c)if(void 0!==a.pass){let t=a.pass;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;}}}}}}}}}}}}}}}}}}m=i===p;}else m=true;if(m){if(void 0!==r.entries){let t=r.entries;const a=p;if(p===a){if(!Array.isArray(t))return e.errors=[{instancePath:s+"/entries",schemaPath:"#/properties/entries/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(t.length>5e5)return e.errors=[{instancePath:s+"/entries",schemaPath:"#/properties/entries/maxItems",keyword:"maxItems",params:{limit:5e5},message:"must NOT have more than 500000 items"}],false;{const e=t.length;for(let r=0;r<e;r++){const e=p;if(_(t[r],{instancePath:s+"/entries/"+r,parentData:t,parentDataProperty:r,rootData:o})||(n=null===n?_.errors:n.concat(_.errors),p=n.length),!(e===p))break}}}m=a===p;}else m=true;if(m){if(void 0!==r.groups){let t=r.groups;const a=p;if(p===a){if(!Array.isArray(t))return e.errors=[{instancePath:s+"/groups",schemaPath:"#/properties/groups/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(t.length>5e5)return e.errors=[{instancePath:s+"/groups",schemaPath:"#/properties/groups/maxItems",keyword:"maxItems",params:{limit:5e5},message:"must NOT have more than 500000 items"}],false;{const e=t.length;for(let r=0;r<e;r++){const e=p;if(V(t[r],{instancePath:s+"/groups/"+r,parentData:t,parentDataProperty:r,rootData:o})||(n=null===n?V.errors:n.concat(V.errors),p=n.length),!(e===p))break}}}m=a===p;}else m=true;if(m){if(void 0!==r.baselineFile){let t=r.baselineFile;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/baselineFile",schemaPath:"#/properties/baselineFile/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>4096)return e.errors=[{instancePath:s+"/baselineFile",schemaPath:"#/properties/baselineFile/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}m=a===p;}else m=true;if(m){if(void 0!==r.environment){const e=p;K(r.environment,{instancePath:s+"/environment",parentData:r,parentDataProperty:"environment",rootData:o})||(n=null===n?K.errors:n.concat(K.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.missingArtifacts){let t=r.missingArtifacts;const a=p;if(p===a){if(!Array.isArray(t))return e.errors=[{instancePath:s+"/missingArtifacts",schemaPath:"#/properties/missingArtifacts/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(t.length>1e4)return e.errors=[{instancePath:s+"/missingArtifacts",schemaPath:"#/properties/missingArtifacts/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const r=t.length;for(let a=0;a<r;a++){let r=t[a];const i=p;if(p===i){if("string"!=typeof r)return e.errors=[{instancePath:s+"/missingArtifacts/"+a,schemaPath:"#/properties/missingArtifacts/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return e.errors=[{instancePath:s+"/missingArtifacts/"+a,schemaPath:"#/properties/missingArtifacts/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}if(!(i===p))break}}}m=a===p;}else m=true;if(m)if(void 0!==r.generatedAt){let t=r.generatedAt;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>64)return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/maxLength",keyword:"maxLength",params:{limit:64},message:"must NOT have more than 64 characters"}],false;if(!R.test(t))return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/pattern",keyword:"pattern",params:{pattern:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"},message:'must match pattern "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"'}],false}m=a===p;}else m=true;}}}}}}}}}}return e.errors=n,0===p};const E={properties:{result:{enum:["pass","fail"]},counts:{properties:{regressed:{type:"integer",minimum:0,maximum:5e5},"over-budget":{type:"integer",minimum:0,maximum:5e5},"over-capacity":{type:"integer",minimum:0,maximum:5e5},"alloc-failure":{type:"integer",minimum:0,maximum:5e5},oom:{type:"integer",minimum:0,maximum:5e5},"leak-suspect":{type:"integer",minimum:0,maximum:5e5},"step-leak":{type:"integer",minimum:0,maximum:5e5},"low-headroom":{type:"integer",minimum:0,maximum:5e5},fragmented:{type:"integer",minimum:0,maximum:5e5},"above-reference":{type:"integer",minimum:0,maximum:5e5},imbalance:{type:"integer",minimum:0,maximum:5e5},growing:{type:"integer",minimum:0,maximum:5e5},new:{type:"integer",minimum:0,maximum:5e5},missing:{type:"integer",minimum:0,maximum:5e5},improved:{type:"integer",minimum:0,maximum:5e5},ignored:{type:"integer",minimum:0,maximum:5e5},pass:{type:"integer",minimum:0,maximum:5e5}}}}},z={properties:{kind:{type:"string",enum:["module","component","operator","graph","kernel","step","stepLeak","unfreed","owner","opFootprint","inefficient","allocator","allocationSite","oom","oomModule","device"]},key:{type:"string",minLength:1,maxLength:4096},baseline:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991},current:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991},delta:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991},percent:{type:["number","null"]},status:{type:"string",enum:["regressed","over-budget","over-capacity","alloc-failure","oom","leak-suspect","step-leak","low-headroom","fragmented","above-reference","imbalance","growing","new","missing","improved","ignored","pass"]},severity:{type:"string",enum:["fail","warn","ok"]},rule:{type:["string","null"],maxLength:4096},unit:{type:"string",enum:["bytes","count"]},limit:{type:"integer",minimum:-9007199254740991,maximum:9007199254740991},capacity:{type:"integer",minimum:0,maximum:9007199254740991,description:"A headroom verdict's device capacity in bytes."},note:{type:"string",maxLength:2e3},noise:{type:"object",additionalProperties:false,required:["applied","points","spread"],description:"Set when the noise band (config `history`) was asked about this key's change: which bound applied, and the default branch's values it read.",properties:{applied:{type:"string",enum:["band","tolerance"]},points:{type:"integer",minimum:0,maximum:1e3},spread:{type:["integer","null"],minimum:0,maximum:9007199254740991}}}}};function _(e,{instancePath:r="",parentData:s,parentDataProperty:a,rootData:i=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return _.errors=[{instancePath:r,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===e.kind&&(s="kind")||void 0===e.key&&(s="key")||void 0===e.baseline&&(s="baseline")||void 0===e.current&&(s="current")||void 0===e.delta&&(s="delta")||void 0===e.percent&&(s="percent")||void 0===e.status&&(s="status")||void 0===e.severity&&(s="severity")||void 0===e.rule&&(s="rule"))return _.errors=[{instancePath:r,schemaPath:"#/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{for(const s in e)if(!t.call(z.properties,s))return _.errors=[{instancePath:r,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;{if(void 0!==e.kind){let t=e.kind;const s=0;if("string"!=typeof t)return _.errors=[{instancePath:r+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("module"!==t&&"component"!==t&&"operator"!==t&&"graph"!==t&&"kernel"!==t&&"step"!==t&&"stepLeak"!==t&&"unfreed"!==t&&"owner"!==t&&"opFootprint"!==t&&"inefficient"!==t&&"allocator"!==t&&"allocationSite"!==t&&"oom"!==t&&"oomModule"!==t&&"device"!==t)return _.errors=[{instancePath:r+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues:z.properties.kind.enum},message:"must be equal to one of the allowed values"}],false;var o=0===s;}else o=true;if(o){if(void 0!==e.key){let t=e.key;const s=0;{if("string"!=typeof t)return _.errors=[{instancePath:r+"/key",schemaPath:"#/properties/key/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>4096)return _.errors=[{instancePath:r+"/key",schemaPath:"#/properties/key/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;if(x(t)<1)return _.errors=[{instancePath:r+"/key",schemaPath:"#/properties/key/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.baseline){let t=e.baseline;const s=0;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return _.errors=[{instancePath:r+"/baseline",schemaPath:"#/properties/baseline/type",keyword:"type",params:{type:z.properties.baseline.type},message:"must be integer,null"}],false;if("number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/baseline",schemaPath:"#/properties/baseline/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/baseline",schemaPath:"#/properties/baseline/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.current){let t=e.current;const s=0;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return _.errors=[{instancePath:r+"/current",schemaPath:"#/properties/current/type",keyword:"type",params:{type:z.properties.current.type},message:"must be integer,null"}],false;if("number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/current",schemaPath:"#/properties/current/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/current",schemaPath:"#/properties/current/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.delta){let t=e.delta;const s=0;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return _.errors=[{instancePath:r+"/delta",schemaPath:"#/properties/delta/type",keyword:"type",params:{type:z.properties.delta.type},message:"must be integer,null"}],false;if("number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/delta",schemaPath:"#/properties/delta/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/delta",schemaPath:"#/properties/delta/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.percent){let t=e.percent;const s=0;if(("number"!=typeof t||!isFinite(t))&&null!==t)return _.errors=[{instancePath:r+"/percent",schemaPath:"#/properties/percent/type",keyword:"type",params:{type:z.properties.percent.type},message:"must be number,null"}],false;o=0===s;}else o=true;if(o){if(void 0!==e.status){let t=e.status;const s=0;if("string"!=typeof t)return _.errors=[{instancePath:r+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("regressed"!==t&&"over-budget"!==t&&"over-capacity"!==t&&"alloc-failure"!==t&&"oom"!==t&&"leak-suspect"!==t&&"step-leak"!==t&&"low-headroom"!==t&&"fragmented"!==t&&"above-reference"!==t&&"imbalance"!==t&&"growing"!==t&&"new"!==t&&"missing"!==t&&"improved"!==t&&"ignored"!==t&&"pass"!==t)return _.errors=[{instancePath:r+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues:z.properties.status.enum},message:"must be equal to one of the allowed values"}],false;o=0===s;}else o=true;if(o){if(void 0!==e.severity){let t=e.severity;const s=0;if("string"!=typeof t)return _.errors=[{instancePath:r+"/severity",schemaPath:"#/properties/severity/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("fail"!==t&&"warn"!==t&&"ok"!==t)return _.errors=[{instancePath:r+"/severity",schemaPath:"#/properties/severity/enum",keyword:"enum",params:{allowedValues:z.properties.severity.enum},message:"must be equal to one of the allowed values"}],false;o=0===s;}else o=true;if(o){if(void 0!==e.rule){let t=e.rule;const s=0;if("string"!=typeof t&&null!==t)return _.errors=[{instancePath:r+"/rule",schemaPath:"#/properties/rule/type",keyword:"type",params:{type:z.properties.rule.type},message:"must be string,null"}],false;if("string"==typeof t&&x(t)>4096)return _.errors=[{instancePath:r+"/rule",schemaPath:"#/properties/rule/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;o=0===s;}else o=true;if(o){if(void 0!==e.unit){let t=e.unit;const s=0;if("string"!=typeof t)return _.errors=[{instancePath:r+"/unit",schemaPath:"#/properties/unit/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("bytes"!==t&&"count"!==t)return _.errors=[{instancePath:r+"/unit",schemaPath:"#/properties/unit/enum",keyword:"enum",params:{allowedValues:z.properties.unit.enum},message:"must be equal to one of the allowed values"}],false;o=0===s;}else o=true;if(o){if(void 0!==e.limit){let t=e.limit;const s=0;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return _.errors=[{instancePath:r+"/limit",schemaPath:"#/properties/limit/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/limit",schemaPath:"#/properties/limit/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/limit",schemaPath:"#/properties/limit/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.capacity){let t=e.capacity;const s=0;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return _.errors=[{instancePath:r+"/capacity",schemaPath:"#/properties/capacity/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return _.errors=[{instancePath:r+"/capacity",schemaPath:"#/properties/capacity/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<0||isNaN(t))return _.errors=[{instancePath:r+"/capacity",schemaPath:"#/properties/capacity/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}o=0===s;}else o=true;if(o){if(void 0!==e.note){let t=e.note;const s=0;{if("string"!=typeof t)return _.errors=[{instancePath:r+"/note",schemaPath:"#/properties/note/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>2e3)return _.errors=[{instancePath:r+"/note",schemaPath:"#/properties/note/maxLength",keyword:"maxLength",params:{limit:2e3},message:"must NOT have more than 2000 characters"}],false}o=0===s;}else o=true;if(o)if(void 0!==e.noise){let t=e.noise;const s=0;{if(!t||"object"!=typeof t||Array.isArray(t))return _.errors=[{instancePath:r+"/noise",schemaPath:"#/properties/noise/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let e;if(void 0===t.applied&&(e="applied")||void 0===t.points&&(e="points")||void 0===t.spread&&(e="spread"))return _.errors=[{instancePath:r+"/noise",schemaPath:"#/properties/noise/required",keyword:"required",params:{missingProperty:e},message:"must have required property '"+e+"'"}],false;{for(const e in t)if("applied"!==e&&"points"!==e&&"spread"!==e)return _.errors=[{instancePath:r+"/noise",schemaPath:"#/properties/noise/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:e},message:"must NOT have additional properties"}],false;{if(void 0!==t.applied){let e=t.applied;const s=0;if("string"!=typeof e)return _.errors=[{instancePath:r+"/noise/applied",schemaPath:"#/properties/noise/properties/applied/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("band"!==e&&"tolerance"!==e)return _.errors=[{instancePath:r+"/noise/applied",schemaPath:"#/properties/noise/properties/applied/enum",keyword:"enum",params:{allowedValues:z.properties.noise.properties.applied.enum},message:"must be equal to one of the allowed values"}],false;var n=0===s;}else n=true;if(n){if(void 0!==t.points){let e=t.points;const s=0;if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return _.errors=[{instancePath:r+"/noise/points",schemaPath:"#/properties/noise/properties/points/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>1e3||isNaN(e))return _.errors=[{instancePath:r+"/noise/points",schemaPath:"#/properties/noise/properties/points/maximum",keyword:"maximum",params:{comparison:"<=",limit:1e3},message:"must be <= 1000"}],false;if(e<0||isNaN(e))return _.errors=[{instancePath:r+"/noise/points",schemaPath:"#/properties/noise/properties/points/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}n=0===s;}else n=true;if(n)if(void 0!==t.spread){let e=t.spread;const s=0;if(("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))&&null!==e)return _.errors=[{instancePath:r+"/noise/spread",schemaPath:"#/properties/noise/properties/spread/type",keyword:"type",params:{type:z.properties.noise.properties.spread.type},message:"must be integer,null"}],false;if("number"==typeof e&&isFinite(e)){if(e>9007199254740991||isNaN(e))return _.errors=[{instancePath:r+"/noise/spread",schemaPath:"#/properties/noise/properties/spread/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(e<0||isNaN(e))return _.errors=[{instancePath:r+"/noise/spread",schemaPath:"#/properties/noise/properties/spread/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}n=0===s;}else n=true;}}}}}o=0===s;}else o=true;}}}}}}}}}}}}}}}return _.errors=null,true}const C={properties:{kind:{enum:["module","component","operator","graph","kernel","step","stepLeak","unfreed","owner","opFootprint","inefficient","allocator","allocationSite","oom","oomModule","device"]},status:{enum:["regressed","over-budget","over-capacity","alloc-failure","oom","leak-suspect","step-leak","low-headroom","fragmented","above-reference","imbalance","growing","new","missing","improved","ignored","pass"]},severity:{enum:["fail","warn","ok"]}}};function V(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return V.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.kind&&(r="kind")||void 0===e.status&&(r="status")||void 0===e.severity&&(r="severity")||void 0===e.pattern&&(r="pattern")||void 0===e.entries&&(r="entries")||void 0===e.ofDevices&&(r="ofDevices")||void 0===e.medianDelta&&(r="medianDelta"))return V.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("kind"!==r&&"status"!==r&&"severity"!==r&&"pattern"!==r&&"entries"!==r&&"ofDevices"!==r&&"medianDelta"!==r)return V.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.kind){let r=e.kind;const s=0;if("string"!=typeof r)return V.errors=[{instancePath:t+"/kind",schemaPath:"#/properties/kind/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("module"!==r&&"component"!==r&&"operator"!==r&&"graph"!==r&&"kernel"!==r&&"step"!==r&&"stepLeak"!==r&&"unfreed"!==r&&"owner"!==r&&"opFootprint"!==r&&"inefficient"!==r&&"allocator"!==r&&"allocationSite"!==r&&"oom"!==r&&"oomModule"!==r&&"device"!==r)return V.errors=[{instancePath:t+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues:C.properties.kind.enum},message:"must be equal to one of the allowed values"}],false;var i=0===s;}else i=true;if(i){if(void 0!==e.status){let r=e.status;const s=0;if("string"!=typeof r)return V.errors=[{instancePath:t+"/status",schemaPath:"#/properties/status/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("regressed"!==r&&"over-budget"!==r&&"over-capacity"!==r&&"alloc-failure"!==r&&"oom"!==r&&"leak-suspect"!==r&&"step-leak"!==r&&"low-headroom"!==r&&"fragmented"!==r&&"above-reference"!==r&&"imbalance"!==r&&"growing"!==r&&"new"!==r&&"missing"!==r&&"improved"!==r&&"ignored"!==r&&"pass"!==r)return V.errors=[{instancePath:t+"/status",schemaPath:"#/properties/status/enum",keyword:"enum",params:{allowedValues:C.properties.status.enum},message:"must be equal to one of the allowed values"}],false;i=0===s;}else i=true;if(i){if(void 0!==e.severity){let r=e.severity;const s=0;if("string"!=typeof r)return V.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("fail"!==r&&"warn"!==r&&"ok"!==r)return V.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/enum",keyword:"enum",params:{allowedValues:C.properties.severity.enum},message:"must be equal to one of the allowed values"}],false;i=0===s;}else i=true;if(i){if(void 0!==e.pattern){let r=e.pattern;const s=0;{if("string"!=typeof r)return V.errors=[{instancePath:t+"/pattern",schemaPath:"#/properties/pattern/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return V.errors=[{instancePath:t+"/pattern",schemaPath:"#/properties/pattern/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;if(x(r)<1)return V.errors=[{instancePath:t+"/pattern",schemaPath:"#/properties/pattern/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}i=0===s;}else i=true;if(i){if(void 0!==e.entries){let r=e.entries;const s=0;{if(!Array.isArray(r))return V.errors=[{instancePath:t+"/entries",schemaPath:"#/properties/entries/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>5e5)return V.errors=[{instancePath:t+"/entries",schemaPath:"#/properties/entries/maxItems",keyword:"maxItems",params:{limit:5e5},message:"must NOT have more than 500000 items"}],false;if(r.length<2)return V.errors=[{instancePath:t+"/entries",schemaPath:"#/properties/entries/minItems",keyword:"minItems",params:{limit:2},message:"must NOT have fewer than 2 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];if("number"!=typeof e||e%1||isNaN(e)||!isFinite(e))return V.errors=[{instancePath:t+"/entries/"+s,schemaPath:"#/properties/entries/items/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof e&&isFinite(e)){if(e>5e5||isNaN(e))return V.errors=[{instancePath:t+"/entries/"+s,schemaPath:"#/properties/entries/items/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(e<0||isNaN(e))return V.errors=[{instancePath:t+"/entries/"+s,schemaPath:"#/properties/entries/items/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}}}}i=0===s;}else i=true;if(i){if(void 0!==e.ofDevices){let r=e.ofDevices;const s=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return V.errors=[{instancePath:t+"/ofDevices",schemaPath:"#/properties/ofDevices/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>5e5||isNaN(r))return V.errors=[{instancePath:t+"/ofDevices",schemaPath:"#/properties/ofDevices/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(r<0||isNaN(r))return V.errors=[{instancePath:t+"/ofDevices",schemaPath:"#/properties/ofDevices/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}i=0===s;}else i=true;if(i)if(void 0!==e.medianDelta){let r=e.medianDelta;const s=0;if("number"!=typeof r||r%1||isNaN(r)||!isFinite(r))return V.errors=[{instancePath:t+"/medianDelta",schemaPath:"#/properties/medianDelta/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if("number"==typeof r&&isFinite(r)){if(r>9007199254740991||isNaN(r))return V.errors=[{instancePath:t+"/medianDelta",schemaPath:"#/properties/medianDelta/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(r<-9007199254740991||isNaN(r))return V.errors=[{instancePath:t+"/medianDelta",schemaPath:"#/properties/medianDelta/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}i=0===s;}else i=true;}}}}}}}}return V.errors=null,true}const U={properties:{changes:{items:{properties:{baseline:{type:["string","null"]},current:{type:["string","null"]}}}},splits:{items:{properties:{values:{items:{properties:{value:{type:["string","null"],maxLength:4096},nodes:{type:"array",maxItems:1e4,items:{type:"string",maxLength:4096}}}}}}}},severity:{enum:["fail","warn","ok"]}}};function K(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return K.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.changes&&(r="changes")||void 0===e.splits&&(r="splits")||void 0===e.severity&&(r="severity"))return K.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("changes"!==r&&"splits"!==r&&"severity"!==r)return K.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.changes){let r=e.changes;const s=0;{if(!Array.isArray(r))return K.errors=[{instancePath:t+"/changes",schemaPath:"#/properties/changes/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return K.errors=[{instancePath:t+"/changes",schemaPath:"#/properties/changes/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];{if(!e||"object"!=typeof e||Array.isArray(e))return K.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.item&&(r="item")||void 0===e.baseline&&(r="baseline")||void 0===e.current&&(r="current"))return K.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("item"!==r&&"baseline"!==r&&"current"!==r)return K.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.item){let r=e.item;const a=0;{if("string"!=typeof r)return K.errors=[{instancePath:t+"/changes/"+s+"/item",schemaPath:"#/properties/changes/items/properties/item/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return K.errors=[{instancePath:t+"/changes/"+s+"/item",schemaPath:"#/properties/changes/items/properties/item/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}var i=0===a;}else i=true;if(i){if(void 0!==e.baseline){let r=e.baseline;const a=0;if("string"!=typeof r&&null!==r)return K.errors=[{instancePath:t+"/changes/"+s+"/baseline",schemaPath:"#/properties/changes/items/properties/baseline/type",keyword:"type",params:{type:U.properties.changes.items.properties.baseline.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return K.errors=[{instancePath:t+"/changes/"+s+"/baseline",schemaPath:"#/properties/changes/items/properties/baseline/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;i=0===a;}else i=true;if(i)if(void 0!==e.current){let r=e.current;const a=0;if("string"!=typeof r&&null!==r)return K.errors=[{instancePath:t+"/changes/"+s+"/current",schemaPath:"#/properties/changes/items/properties/current/type",keyword:"type",params:{type:U.properties.changes.items.properties.current.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return K.errors=[{instancePath:t+"/changes/"+s+"/current",schemaPath:"#/properties/changes/items/properties/current/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;i=0===a;}else i=true;}}}}}}}}var o=0===s;}else o=true;if(o){if(void 0!==e.splits){let r=e.splits;const s=0;{if(!Array.isArray(r))return K.errors=[{instancePath:t+"/splits",schemaPath:"#/properties/splits/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return K.errors=[{instancePath:t+"/splits",schemaPath:"#/properties/splits/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];{if(!e||"object"!=typeof e||Array.isArray(e))return K.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.item&&(r="item")||void 0===e.values&&(r="values"))return K.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("item"!==r&&"values"!==r)return K.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.item){let r=e.item;const a=0;{if("string"!=typeof r)return K.errors=[{instancePath:t+"/splits/"+s+"/item",schemaPath:"#/properties/splits/items/properties/item/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return K.errors=[{instancePath:t+"/splits/"+s+"/item",schemaPath:"#/properties/splits/items/properties/item/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}var n=0===a;}else n=true;if(n)if(void 0!==e.values){let r=e.values;const a=0;{if(!Array.isArray(r))return K.errors=[{instancePath:t+"/splits/"+s+"/values",schemaPath:"#/properties/splits/items/properties/values/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return K.errors=[{instancePath:t+"/splits/"+s+"/values",schemaPath:"#/properties/splits/items/properties/values/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let a=0;a<e;a++){let e=r[a];{if(!e||"object"!=typeof e||Array.isArray(e))return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.value&&(r="value")||void 0===e.nodes&&(r="nodes"))return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("value"!==r&&"nodes"!==r)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.value){let r=e.value;const i=0;if("string"!=typeof r&&null!==r)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/value",schemaPath:"#/properties/splits/items/properties/values/items/properties/value/type",keyword:"type",params:{type:U.properties.splits.items.properties.values.items.properties.value.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/value",schemaPath:"#/properties/splits/items/properties/values/items/properties/value/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;var p=0===i;}else p=true;if(p)if(void 0!==e.nodes){let r=e.nodes;const i=0;{if(!Array.isArray(r))return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes",schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes",schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let i=0;i<e;i++){let e=r[i];{if("string"!=typeof e)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes/"+i,schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(e)>4096)return K.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes/"+i,schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}}}}p=0===i;}else p=true;}}}}}}}n=0===a;}else n=true;}}}}}}}o=0===s;}else o=true;if(o)if(void 0!==e.severity){let r=e.severity;const s=0;if("string"!=typeof r)return K.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("fail"!==r&&"warn"!==r&&"ok"!==r)return K.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/enum",keyword:"enum",params:{allowedValues:U.properties.severity.enum},message:"must be equal to one of the allowed values"}],false;o=0===s;}else o=true;}}}}return K.errors=null,true}const R=new RegExp("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$","u");const check_cef7e0af95b3bd2116990a57f410941a=function e(r,{instancePath:s="",parentData:a,parentDataProperty:i,rootData:o=r}={}){let n=null,p=0;if(0===p){if(!r||"object"!=typeof r||Array.isArray(r))return e.errors=[{instancePath:s,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let a;if(void 0===r.result&&(a="result")||void 0===r.counts&&(a="counts")||void 0===r.entries&&(a="entries"))return e.errors=[{instancePath:s,schemaPath:"#/required",keyword:"required",params:{missingProperty:a},message:"must have required property '"+a+"'"}],false;{const a=p;for(const t in r)if("result"!==t&&"counts"!==t&&"entries"!==t&&"groups"!==t&&"baselineFile"!==t&&"environment"!==t&&"missingArtifacts"!==t&&"generatedAt"!==t)return e.errors=[{instancePath:s,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:t},message:"must NOT have additional properties"}],false;if(a===p){if(void 0!==r.result){let t=r.result;const a=p;if("string"!=typeof t)return e.errors=[{instancePath:s+"/result",schemaPath:"#/properties/result/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("pass"!==t&&"fail"!==t)return e.errors=[{instancePath:s+"/result",schemaPath:"#/properties/result/enum",keyword:"enum",params:{allowedValues:Z.properties.result.enum},message:"must be equal to one of the allowed values"}],false;var m=a===p;}else m=true;if(m){if(void 0!==r.counts){let a=r.counts;const i=p;if(p===i){if(!a||"object"!=typeof a||Array.isArray(a))return e.errors=[{instancePath:s+"/counts",schemaPath:"#/properties/counts/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{const r=p;for(const r in a)if(!t.call(Z.properties.counts.properties,r))return e.errors=[{instancePath:s+"/counts",schemaPath:"#/properties/counts/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;if(r===p){if(void 0!==a.regressed){let t=a.regressed;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/regressed",schemaPath:"#/properties/counts/properties/regressed/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}var c=r===p;}else c=true;if(c){if(void 0!==a["over-budget"]){let t=a["over-budget"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-budget",schemaPath:"#/properties/counts/properties/over-budget/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["over-capacity"]){let t=a["over-capacity"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/over-capacity",schemaPath:"#/properties/counts/properties/over-capacity/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["alloc-failure"]){let t=a["alloc-failure"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/alloc-failure",schemaPath:"#/properties/counts/properties/alloc-failure/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.oom){let t=a.oom;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/oom",schemaPath:"#/properties/counts/properties/oom/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["leak-suspect"]){let t=a["leak-suspect"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/leak-suspect",schemaPath:"#/properties/counts/properties/leak-suspect/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["step-leak"]){let t=a["step-leak"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/step-leak",schemaPath:"#/properties/counts/properties/step-leak/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["low-headroom"]){let t=a["low-headroom"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/low-headroom",schemaPath:"#/properties/counts/properties/low-headroom/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.fragmented){let t=a.fragmented;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/fragmented",schemaPath:"#/properties/counts/properties/fragmented/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a["above-reference"]){let t=a["above-reference"];const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/above-reference",schemaPath:"#/properties/counts/properties/above-reference/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.imbalance){let t=a.imbalance;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/imbalance",schemaPath:"#/properties/counts/properties/imbalance/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.growing){let t=a.growing;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/growing",schemaPath:"#/properties/counts/properties/growing/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.new){let t=a.new;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/new",schemaPath:"#/properties/counts/properties/new/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.missing){let t=a.missing;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/missing",schemaPath:"#/properties/counts/properties/missing/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.improved){let t=a.improved;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/improved",schemaPath:"#/properties/counts/properties/improved/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c){if(void 0!==a.ignored){let t=a.ignored;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/ignored",schemaPath:"#/properties/counts/properties/ignored/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;if(c)if(void 0!==a.pass){let t=a.pass;const r=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===r&&"number"==typeof t&&isFinite(t)){if(t>5e5||isNaN(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/maximum",keyword:"maximum",params:{comparison:"<=",limit:5e5},message:"must be <= 500000"}],false;if(t<0||isNaN(t))return e.errors=[{instancePath:s+"/counts/pass",schemaPath:"#/properties/counts/properties/pass/minimum",keyword:"minimum",params:{comparison:">=",limit:0},message:"must be >= 0"}],false}c=r===p;}else c=true;}}}}}}}}}}}}}}}}}}m=i===p;}else m=true;if(m){if(void 0!==r.entries){const t=p;if(!Array.isArray(r.entries))return e.errors=[{instancePath:s+"/entries",schemaPath:"#/properties/entries/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;m=t===p;}else m=true;if(m){if(void 0!==r.groups){const t=p;if(!Array.isArray(r.groups))return e.errors=[{instancePath:s+"/groups",schemaPath:"#/properties/groups/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;m=t===p;}else m=true;if(m){if(void 0!==r.baselineFile){let t=r.baselineFile;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/baselineFile",schemaPath:"#/properties/baselineFile/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>4096)return e.errors=[{instancePath:s+"/baselineFile",schemaPath:"#/properties/baselineFile/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}m=a===p;}else m=true;if(m){if(void 0!==r.environment){const e=p;H(r.environment,{instancePath:s+"/environment",parentData:r,parentDataProperty:"environment",rootData:o})||(n=null===n?H.errors:n.concat(H.errors),p=n.length);m=e===p;}else m=true;if(m){if(void 0!==r.missingArtifacts){let t=r.missingArtifacts;const a=p;if(p===a){if(!Array.isArray(t))return e.errors=[{instancePath:s+"/missingArtifacts",schemaPath:"#/properties/missingArtifacts/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(t.length>1e4)return e.errors=[{instancePath:s+"/missingArtifacts",schemaPath:"#/properties/missingArtifacts/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const r=t.length;for(let a=0;a<r;a++){let r=t[a];const i=p;if(p===i){if("string"!=typeof r)return e.errors=[{instancePath:s+"/missingArtifacts/"+a,schemaPath:"#/properties/missingArtifacts/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return e.errors=[{instancePath:s+"/missingArtifacts/"+a,schemaPath:"#/properties/missingArtifacts/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}if(!(i===p))break}}}m=a===p;}else m=true;if(m)if(void 0!==r.generatedAt){let t=r.generatedAt;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>64)return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/maxLength",keyword:"maxLength",params:{limit:64},message:"must NOT have more than 64 characters"}],false;if(!R.test(t))return e.errors=[{instancePath:s+"/generatedAt",schemaPath:"#/properties/generatedAt/pattern",keyword:"pattern",params:{pattern:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"},message:'must match pattern "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"'}],false}m=a===p;}else m=true;}}}}}}}}}}return e.errors=n,0===p};const Z={properties:{result:{enum:["pass","fail"]},counts:{properties:{regressed:{type:"integer",minimum:0,maximum:5e5},"over-budget":{type:"integer",minimum:0,maximum:5e5},"over-capacity":{type:"integer",minimum:0,maximum:5e5},"alloc-failure":{type:"integer",minimum:0,maximum:5e5},oom:{type:"integer",minimum:0,maximum:5e5},"leak-suspect":{type:"integer",minimum:0,maximum:5e5},"step-leak":{type:"integer",minimum:0,maximum:5e5},"low-headroom":{type:"integer",minimum:0,maximum:5e5},fragmented:{type:"integer",minimum:0,maximum:5e5},"above-reference":{type:"integer",minimum:0,maximum:5e5},imbalance:{type:"integer",minimum:0,maximum:5e5},growing:{type:"integer",minimum:0,maximum:5e5},new:{type:"integer",minimum:0,maximum:5e5},missing:{type:"integer",minimum:0,maximum:5e5},improved:{type:"integer",minimum:0,maximum:5e5},ignored:{type:"integer",minimum:0,maximum:5e5},pass:{type:"integer",minimum:0,maximum:5e5}}}}};function H(e,{instancePath:t="",parentData:r,parentDataProperty:s,rootData:a=e}={}){if(!e||"object"!=typeof e||Array.isArray(e))return H.errors=[{instancePath:t,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.changes&&(r="changes")||void 0===e.splits&&(r="splits")||void 0===e.severity&&(r="severity"))return H.errors=[{instancePath:t,schemaPath:"#/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("changes"!==r&&"splits"!==r&&"severity"!==r)return H.errors=[{instancePath:t,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.changes){let r=e.changes;const s=0;{if(!Array.isArray(r))return H.errors=[{instancePath:t+"/changes",schemaPath:"#/properties/changes/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return H.errors=[{instancePath:t+"/changes",schemaPath:"#/properties/changes/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];{if(!e||"object"!=typeof e||Array.isArray(e))return H.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.item&&(r="item")||void 0===e.baseline&&(r="baseline")||void 0===e.current&&(r="current"))return H.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("item"!==r&&"baseline"!==r&&"current"!==r)return H.errors=[{instancePath:t+"/changes/"+s,schemaPath:"#/properties/changes/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.item){let r=e.item;const a=0;{if("string"!=typeof r)return H.errors=[{instancePath:t+"/changes/"+s+"/item",schemaPath:"#/properties/changes/items/properties/item/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return H.errors=[{instancePath:t+"/changes/"+s+"/item",schemaPath:"#/properties/changes/items/properties/item/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}var i=0===a;}else i=true;if(i){if(void 0!==e.baseline){let r=e.baseline;const a=0;if("string"!=typeof r&&null!==r)return H.errors=[{instancePath:t+"/changes/"+s+"/baseline",schemaPath:"#/properties/changes/items/properties/baseline/type",keyword:"type",params:{type:U.properties.changes.items.properties.baseline.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return H.errors=[{instancePath:t+"/changes/"+s+"/baseline",schemaPath:"#/properties/changes/items/properties/baseline/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;i=0===a;}else i=true;if(i)if(void 0!==e.current){let r=e.current;const a=0;if("string"!=typeof r&&null!==r)return H.errors=[{instancePath:t+"/changes/"+s+"/current",schemaPath:"#/properties/changes/items/properties/current/type",keyword:"type",params:{type:U.properties.changes.items.properties.current.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return H.errors=[{instancePath:t+"/changes/"+s+"/current",schemaPath:"#/properties/changes/items/properties/current/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;i=0===a;}else i=true;}}}}}}}}var o=0===s;}else o=true;if(o){if(void 0!==e.splits){let r=e.splits;const s=0;{if(!Array.isArray(r))return H.errors=[{instancePath:t+"/splits",schemaPath:"#/properties/splits/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return H.errors=[{instancePath:t+"/splits",schemaPath:"#/properties/splits/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let s=0;s<e;s++){let e=r[s];{if(!e||"object"!=typeof e||Array.isArray(e))return H.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.item&&(r="item")||void 0===e.values&&(r="values"))return H.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("item"!==r&&"values"!==r)return H.errors=[{instancePath:t+"/splits/"+s,schemaPath:"#/properties/splits/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.item){let r=e.item;const a=0;{if("string"!=typeof r)return H.errors=[{instancePath:t+"/splits/"+s+"/item",schemaPath:"#/properties/splits/items/properties/item/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(r)>4096)return H.errors=[{instancePath:t+"/splits/"+s+"/item",schemaPath:"#/properties/splits/items/properties/item/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}var n=0===a;}else n=true;if(n)if(void 0!==e.values){let r=e.values;const a=0;{if(!Array.isArray(r))return H.errors=[{instancePath:t+"/splits/"+s+"/values",schemaPath:"#/properties/splits/items/properties/values/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return H.errors=[{instancePath:t+"/splits/"+s+"/values",schemaPath:"#/properties/splits/items/properties/values/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let a=0;a<e;a++){let e=r[a];{if(!e||"object"!=typeof e||Array.isArray(e))return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let r;if(void 0===e.value&&(r="value")||void 0===e.nodes&&(r="nodes"))return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/required",keyword:"required",params:{missingProperty:r},message:"must have required property '"+r+"'"}],false;{for(const r in e)if("value"!==r&&"nodes"!==r)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a,schemaPath:"#/properties/splits/items/properties/values/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:r},message:"must NOT have additional properties"}],false;{if(void 0!==e.value){let r=e.value;const i=0;if("string"!=typeof r&&null!==r)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/value",schemaPath:"#/properties/splits/items/properties/values/items/properties/value/type",keyword:"type",params:{type:U.properties.splits.items.properties.values.items.properties.value.type},message:"must be string,null"}],false;if("string"==typeof r&&x(r)>4096)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/value",schemaPath:"#/properties/splits/items/properties/values/items/properties/value/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;var p=0===i;}else p=true;if(p)if(void 0!==e.nodes){let r=e.nodes;const i=0;{if(!Array.isArray(r))return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes",schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;if(r.length>1e4)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes",schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/maxItems",keyword:"maxItems",params:{limit:1e4},message:"must NOT have more than 10000 items"}],false;{const e=r.length;for(let i=0;i<e;i++){let e=r[i];{if("string"!=typeof e)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes/"+i,schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(e)>4096)return H.errors=[{instancePath:t+"/splits/"+s+"/values/"+a+"/nodes/"+i,schemaPath:"#/properties/splits/items/properties/values/items/properties/nodes/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}}}}p=0===i;}else p=true;}}}}}}}n=0===a;}else n=true;}}}}}}}o=0===s;}else o=true;if(o)if(void 0!==e.severity){let r=e.severity;const s=0;if("string"!=typeof r)return H.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if("fail"!==r&&"warn"!==r&&"ok"!==r)return H.errors=[{instancePath:t+"/severity",schemaPath:"#/properties/severity/enum",keyword:"enum",params:{allowedValues:U.properties.severity.enum},message:"must be equal to one of the allowed values"}],false;o=0===s;}else o=true;}}}}return H.errors=null,true}const check_5697b98aabed7d40802f8be90458dd8c=function e(t,{instancePath:r="",parentData:s,parentDataProperty:a,rootData:i=t}={}){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:r,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===t.format&&(s="format")||void 0===t.version&&(s="version"))return e.errors=[{instancePath:r,schemaPath:"#/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{for(const s in t)if("format"!==s&&"version"!==s&&"gate"!==s&&"branch"!==s&&"commitUrl"!==s)return e.errors=[{instancePath:r,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;{if(void 0!==t.format){const s=0;if("ascend-memory-gate history"!==t.format)return e.errors=[{instancePath:r+"/format",schemaPath:"#/properties/format/const",keyword:"const",params:{allowedValue:"ascend-memory-gate history"},message:"must be equal to constant"}],false;var o=0===s;}else o=true;if(o){if(void 0!==t.version){const s=0;if(1!==t.version)return e.errors=[{instancePath:r+"/version",schemaPath:"#/properties/version/const",keyword:"const",params:{allowedValue:1},message:"must be equal to constant"}],false;o=0===s;}else o=true;if(o){if(void 0!==t.gate){let s=t.gate;const a=0;{if("string"!=typeof s)return e.errors=[{instancePath:r+"/gate",schemaPath:"#/properties/gate/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(!G.test(s))return e.errors=[{instancePath:r+"/gate",schemaPath:"#/properties/gate/pattern",keyword:"pattern",params:{pattern:"^[\\w.-]{1,64}$"},message:'must match pattern "^[\\w.-]{1,64}$"'}],false}o=0===a;}else o=true;if(o){if(void 0!==t.branch){let s=t.branch;const a=0;{if("string"!=typeof s)return e.errors=[{instancePath:r+"/branch",schemaPath:"#/properties/branch/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(s)>255)return e.errors=[{instancePath:r+"/branch",schemaPath:"#/properties/branch/maxLength",keyword:"maxLength",params:{limit:255},message:"must NOT have more than 255 characters"}],false;if(x(s)<1)return e.errors=[{instancePath:r+"/branch",schemaPath:"#/properties/branch/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}o=0===a;}else o=true;if(o)if(void 0!==t.commitUrl){let s=t.commitUrl;const a=0;{if("string"!=typeof s)return e.errors=[{instancePath:r+"/commitUrl",schemaPath:"#/properties/commitUrl/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(s)>2048)return e.errors=[{instancePath:r+"/commitUrl",schemaPath:"#/properties/commitUrl/maxLength",keyword:"maxLength",params:{limit:2048},message:"must NOT have more than 2048 characters"}],false;if(!W.test(s))return e.errors=[{instancePath:r+"/commitUrl",schemaPath:"#/properties/commitUrl/pattern",keyword:"pattern",params:{pattern:'^https?://[^\\s"<>]*\\{sha\\}[^\\s"<>]*$'},message:'must match pattern "^https?://[^\\s"<>]*\\{sha\\}[^\\s"<>]*$"'}],false}o=0===a;}else o=true;}}}}}}return e.errors=null,true};const G=new RegExp("^[\\w.-]{1,64}$","u"),W=new RegExp('^https?://[^\\s"<>]*\\{sha\\}[^\\s"<>]*$',"u");const check_a1d0227547dc42116747ffa25f88d5ba=function e(t,{instancePath:r="",parentData:s,parentDataProperty:a,rootData:i=t}={}){let o=null,n=0;if(0===n){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:r,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let s;if(void 0===t.keys&&(s="keys"))return e.errors=[{instancePath:r,schemaPath:"#/required",keyword:"required",params:{missingProperty:s},message:"must have required property '"+s+"'"}],false;{const s=n;for(const s in t)if("keys"!==s&&"rollups"!==s)return e.errors=[{instancePath:r,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:s},message:"must NOT have additional properties"}],false;if(s===n){if(void 0!==t.keys){let s=t.keys;const a=n;if(n===a){if(!s||"object"!=typeof s||Array.isArray(s))return e.errors=[{instancePath:r+"/keys",schemaPath:"#/properties/keys/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in s){const s=n;if(n===s)if("string"==typeof t){if(!Y.test(t)){const e={instancePath:r+"/keys",schemaPath:"#/properties/keys/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:t};null===o?o=[e]:o.push(e),n++;}}else {const e={instancePath:r+"/keys",schemaPath:"#/properties/keys/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:t};null===o?o=[e]:o.push(e),n++;}var p=s===n;if(!p){const s={instancePath:r+"/keys",schemaPath:"#/properties/keys/propertyNames",keyword:"propertyNames",params:{propertyName:t},message:"property name must be valid"};return null===o?o=[s]:o.push(s),n++,e.errors=o,false}}if(p)for(const t in s){let a=s[t];const i=n;if(n===i){if(!Array.isArray(a))return e.errors=[{instancePath:r+"/keys/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/keys/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const s=a.length;for(let i=0;i<s;i++){let s=a[i];const o=n;if(n===o){if("string"!=typeof s)return e.errors=[{instancePath:r+"/keys/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/keys/additionalProperties/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(s)>4096)return e.errors=[{instancePath:r+"/keys/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/keys/additionalProperties/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;if(x(s)<1)return e.errors=[{instancePath:r+"/keys/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/keys/additionalProperties/items/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}if(!(o===n))break}}}if(!(i===n))break}}var m=a===n;}else m=true;if(m)if(void 0!==t.rollups){let s=t.rollups;const a=n;if(n===a){if(!s||"object"!=typeof s||Array.isArray(s))return e.errors=[{instancePath:r+"/rollups",schemaPath:"#/properties/rollups/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const t in s){const s=n;if(n===s)if("string"==typeof t){if(!Y.test(t)){const e={instancePath:r+"/rollups",schemaPath:"#/properties/rollups/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:t};null===o?o=[e]:o.push(e),n++;}}else {const e={instancePath:r+"/rollups",schemaPath:"#/properties/rollups/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:t};null===o?o=[e]:o.push(e),n++;}var c=s===n;if(!c){const s={instancePath:r+"/rollups",schemaPath:"#/properties/rollups/propertyNames",keyword:"propertyNames",params:{propertyName:t},message:"property name must be valid"};return null===o?o=[s]:o.push(s),n++,e.errors=o,false}}if(c)for(const t in s){let a=s[t];const i=n;if(n===i){if(!Array.isArray(a))return e.errors=[{instancePath:r+"/rollups/"+t.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/rollups/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const s=a.length;for(let i=0;i<s;i++){let s=a[i];const o=n;if(n===o){if("string"!=typeof s)return e.errors=[{instancePath:r+"/rollups/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(s)>4096)return e.errors=[{instancePath:r+"/rollups/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false;if(x(s)<1)return e.errors=[{instancePath:r+"/rollups/"+t.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}if(!(o===n))break}}}if(!(i===n))break}}m=a===n;}else m=true;}}}}return e.errors=o,0===n};const Y=new RegExp("^[a-z][A-Za-z0-9]{0,63}$","u");const check_608cf862871584f88415bab41fe765ac=function e(r,{instancePath:s="",parentData:a,parentDataProperty:i,rootData:o=r}={}){let n=null,p=0;if(0===p){if(!r||"object"!=typeof r||Array.isArray(r))return e.errors=[{instancePath:s,schemaPath:"#/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;{let a;if(void 0===r.commit&&(a="commit")||void 0===r.time&&(a="time")||void 0===r.baseline&&(a="baseline"))return e.errors=[{instancePath:s,schemaPath:"#/required",keyword:"required",params:{missingProperty:a},message:"must have required property '"+a+"'"}],false;{const a=p;for(const a in r)if(!t.call(J.properties,a))return e.errors=[{instancePath:s,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty:a},message:"must NOT have additional properties"}],false;if(a===p){if(void 0!==r.commit){let t=r.commit;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/commit",schemaPath:"#/properties/commit/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(!Q.test(t))return e.errors=[{instancePath:s+"/commit",schemaPath:"#/properties/commit/pattern",keyword:"pattern",params:{pattern:"^[0-9a-f]{4,64}$"},message:'must match pattern "^[0-9a-f]{4,64}$"'}],false}var m=a===p;}else m=true;if(m){if(void 0!==r.run){let t=r.run;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/run",schemaPath:"#/properties/run/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>100)return e.errors=[{instancePath:s+"/run",schemaPath:"#/properties/run/maxLength",keyword:"maxLength",params:{limit:100},message:"must NOT have more than 100 characters"}],false;if(x(t)<1)return e.errors=[{instancePath:s+"/run",schemaPath:"#/properties/run/minLength",keyword:"minLength",params:{limit:1},message:"must NOT have fewer than 1 characters"}],false}m=a===p;}else m=true;if(m){if(void 0!==r.attempt){let t=r.attempt;const a=p;if("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))return e.errors=[{instancePath:s+"/attempt",schemaPath:"#/properties/attempt/type",keyword:"type",params:{type:"integer"},message:"must be integer"}],false;if(p===a&&"number"==typeof t&&isFinite(t)){if(t>1e6||isNaN(t))return e.errors=[{instancePath:s+"/attempt",schemaPath:"#/properties/attempt/maximum",keyword:"maximum",params:{comparison:"<=",limit:1e6},message:"must be <= 1000000"}],false;if(t<1||isNaN(t))return e.errors=[{instancePath:s+"/attempt",schemaPath:"#/properties/attempt/minimum",keyword:"minimum",params:{comparison:">=",limit:1},message:"must be >= 1"}],false}m=a===p;}else m=true;if(m){if(void 0!==r.time){let t=r.time;const a=p;if(p===a){if("string"!=typeof t)return e.errors=[{instancePath:s+"/time",schemaPath:"#/properties/time/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(t)>64)return e.errors=[{instancePath:s+"/time",schemaPath:"#/properties/time/maxLength",keyword:"maxLength",params:{limit:64},message:"must NOT have more than 64 characters"}],false;if(!R.test(t))return e.errors=[{instancePath:s+"/time",schemaPath:"#/properties/time/pattern",keyword:"pattern",params:{pattern:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"},message:'must match pattern "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"'}],false}m=a===p;}else m=true;if(m){if(void 0!==r.baseline){let t=r.baseline;const a=p;if("string"!=typeof t&&null!==t)return e.errors=[{instancePath:s+"/baseline",schemaPath:"#/properties/baseline/type",keyword:"type",params:{type:J.properties.baseline.type},message:"must be string,null"}],false;if(p===a&&"string"==typeof t&&!X.test(t))return e.errors=[{instancePath:s+"/baseline",schemaPath:"#/properties/baseline/pattern",keyword:"pattern",params:{pattern:"^sha256:[0-9a-f]{64}$"},message:'must match pattern "^sha256:[0-9a-f]{64}$"'}],false;m=a===p;}else m=true;if(m){if(void 0!==r.environment){let t=r.environment;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/environment",schemaPath:"#/properties/environment/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){let a=t[r];const i=p;if(p===i){if("string"!=typeof a)return e.errors=[{instancePath:s+"/environment/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/environment/additionalProperties/type",keyword:"type",params:{type:"string"},message:"must be string"}],false;if(x(a)>4096)return e.errors=[{instancePath:s+"/environment/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/environment/additionalProperties/maxLength",keyword:"maxLength",params:{limit:4096},message:"must NOT have more than 4096 characters"}],false}if(!(i===p))break}}m=a===p;}else m=true;if(m){if(void 0!==r.values){let t=r.values;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/values",schemaPath:"#/properties/values/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){const t=p;if(p===t)if("string"==typeof r){if(!Y.test(r)){const e={instancePath:s+"/values",schemaPath:"#/properties/values/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:r};null===n?n=[e]:n.push(e),p++;}}else {const e={instancePath:s+"/values",schemaPath:"#/properties/values/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:r};null===n?n=[e]:n.push(e),p++;}var c=t===p;if(!c){const t={instancePath:s+"/values",schemaPath:"#/properties/values/propertyNames",keyword:"propertyNames",params:{propertyName:r},message:"property name must be valid"};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}}if(c)for(const r in t){let a=t[r];const i=p;if(p===i){if(!Array.isArray(a))return e.errors=[{instancePath:s+"/values/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/values/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const t=a.length;for(let i=0;i<t;i++){let t=a[i];const o=p;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return e.errors=[{instancePath:s+"/values/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/values/additionalProperties/items/type",keyword:"type",params:{type:J.properties.values.additionalProperties.items.type},message:"must be integer,null"}],false;if(p===o&&"number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/values/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/values/additionalProperties/items/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/values/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/values/additionalProperties/items/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}if(!(o===p))break}}}if(!(i===p))break}}m=a===p;}else m=true;if(m){if(void 0!==r.rollups){let t=r.rollups;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/rollups",schemaPath:"#/properties/rollups/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){const t=p;if(p===t)if("string"==typeof r){if(!Y.test(r)){const e={instancePath:s+"/rollups",schemaPath:"#/properties/rollups/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:r};null===n?n=[e]:n.push(e),p++;}}else {const e={instancePath:s+"/rollups",schemaPath:"#/properties/rollups/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:r};null===n?n=[e]:n.push(e),p++;}var l=t===p;if(!l){const t={instancePath:s+"/rollups",schemaPath:"#/properties/rollups/propertyNames",keyword:"propertyNames",params:{propertyName:r},message:"property name must be valid"};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}}if(l)for(const r in t){let a=t[r];const i=p;if(p===i){if(!Array.isArray(a))return e.errors=[{instancePath:s+"/rollups/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/rollups/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const t=a.length;for(let i=0;i<t;i++){let t=a[i];const o=p;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return e.errors=[{instancePath:s+"/rollups/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/type",keyword:"type",params:{type:J.properties.rollups.additionalProperties.items.type},message:"must be integer,null"}],false;if(p===o&&"number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/rollups/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/rollups/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollups/additionalProperties/items/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}if(!(o===p))break}}}if(!(i===p))break}}m=a===p;}else m=true;if(m){if(void 0!==r.changes){let t=r.changes;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/changes",schemaPath:"#/properties/changes/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){const t=p;if(p===t)if("string"==typeof r){if(!Y.test(r)){const e={instancePath:s+"/changes",schemaPath:"#/properties/changes/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:r};null===n?n=[e]:n.push(e),p++;}}else {const e={instancePath:s+"/changes",schemaPath:"#/properties/changes/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:r};null===n?n=[e]:n.push(e),p++;}var u=t===p;if(!u){const t={instancePath:s+"/changes",schemaPath:"#/properties/changes/propertyNames",keyword:"propertyNames",params:{propertyName:r},message:"property name must be valid"};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}}if(u)for(const r in t){let a=t[r];const i=p;if(p===i){if(!Array.isArray(a))return e.errors=[{instancePath:s+"/changes/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/changes/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const t=a.length;for(let i=0;i<t;i++){let t=a[i];const o=p;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return e.errors=[{instancePath:s+"/changes/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/changes/additionalProperties/items/type",keyword:"type",params:{type:J.properties.changes.additionalProperties.items.type},message:"must be integer,null"}],false;if(p===o&&"number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/changes/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/changes/additionalProperties/items/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/changes/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/changes/additionalProperties/items/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}if(!(o===p))break}}}if(!(i===p))break}}m=a===p;}else m=true;if(m)if(void 0!==r.rollupChanges){let t=r.rollupChanges;const a=p;if(p===a){if(!t||"object"!=typeof t||Array.isArray(t))return e.errors=[{instancePath:s+"/rollupChanges",schemaPath:"#/properties/rollupChanges/type",keyword:"type",params:{type:"object"},message:"must be object"}],false;for(const r in t){const t=p;if(p===t)if("string"==typeof r){if(!Y.test(r)){const e={instancePath:s+"/rollupChanges",schemaPath:"#/properties/rollupChanges/propertyNames/pattern",keyword:"pattern",params:{pattern:"^[a-z][A-Za-z0-9]{0,63}$"},message:'must match pattern "^[a-z][A-Za-z0-9]{0,63}$"',propertyName:r};null===n?n=[e]:n.push(e),p++;}}else {const e={instancePath:s+"/rollupChanges",schemaPath:"#/properties/rollupChanges/propertyNames/type",keyword:"type",params:{type:"string"},message:"must be string",propertyName:r};null===n?n=[e]:n.push(e),p++;}var d=t===p;if(!d){const t={instancePath:s+"/rollupChanges",schemaPath:"#/properties/rollupChanges/propertyNames",keyword:"propertyNames",params:{propertyName:r},message:"property name must be valid"};return null===n?n=[t]:n.push(t),p++,e.errors=n,false}}if(d)for(const r in t){let a=t[r];const i=p;if(p===i){if(!Array.isArray(a))return e.errors=[{instancePath:s+"/rollupChanges/"+r.replace(/~/g,"~0").replace(/\//g,"~1"),schemaPath:"#/properties/rollupChanges/additionalProperties/type",keyword:"type",params:{type:"array"},message:"must be array"}],false;{const t=a.length;for(let i=0;i<t;i++){let t=a[i];const o=p;if(("number"!=typeof t||t%1||isNaN(t)||!isFinite(t))&&null!==t)return e.errors=[{instancePath:s+"/rollupChanges/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollupChanges/additionalProperties/items/type",keyword:"type",params:{type:J.properties.rollupChanges.additionalProperties.items.type},message:"must be integer,null"}],false;if(p===o&&"number"==typeof t&&isFinite(t)){if(t>9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/rollupChanges/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollupChanges/additionalProperties/items/maximum",keyword:"maximum",params:{comparison:"<=",limit:9007199254740991},message:"must be <= 9007199254740991"}],false;if(t<-9007199254740991||isNaN(t))return e.errors=[{instancePath:s+"/rollupChanges/"+r.replace(/~/g,"~0").replace(/\//g,"~1")+"/"+i,schemaPath:"#/properties/rollupChanges/additionalProperties/items/minimum",keyword:"minimum",params:{comparison:">=",limit:-9007199254740991},message:"must be >= -9007199254740991"}],false}if(!(o===p))break}}}if(!(i===p))break}}m=a===p;}else m=true;}}}}}}}}}}}}return e.errors=n,0===p};const J={properties:{commit:{title:"a commit SHA (4 to 64 hex digits)",type:"string",pattern:"^[0-9a-f]{4,64}$"},run:{title:"a run id",type:"string",minLength:1,maxLength:100},attempt:{title:"a run attempt (1 or more)",type:"integer",minimum:1,maximum:1e6},time:{title:"an ISO 8601 date-time such as 2026-06-13T17:00:34Z",type:"string",maxLength:64,pattern:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"},baseline:{title:"sha256: and 64 hex digits, or null",type:["string","null"],pattern:"^sha256:[0-9a-f]{64}$"},environment:{type:"object",additionalProperties:{type:"string",maxLength:4096}},values:{type:"object",propertyNames:{title:'a section name such as "modules"',type:"string",pattern:"^[a-z][A-Za-z0-9]{0,63}$"},additionalProperties:{type:"array",items:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991}}},rollups:{type:"object",propertyNames:{title:'a section name such as "modules"',type:"string",pattern:"^[a-z][A-Za-z0-9]{0,63}$"},additionalProperties:{type:"array",items:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991}}},changes:{type:"object",propertyNames:{title:'a section name such as "modules"',type:"string",pattern:"^[a-z][A-Za-z0-9]{0,63}$"},additionalProperties:{type:"array",items:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991}}},rollupChanges:{type:"object",propertyNames:{title:'a section name such as "modules"',type:"string",pattern:"^[a-z][A-Za-z0-9]{0,63}$"},additionalProperties:{type:"array",items:{type:["integer","null"],minimum:-9007199254740991,maximum:9007199254740991}}}}},Q=new RegExp("^[0-9a-f]{4,64}$","u"),X=new RegExp("^sha256:[0-9a-f]{64}$","u");
const SCHEMA_CHECKS = {
  'c988f3999d856d819c89cf28bb445f4a': check_c988f3999d856d819c89cf28bb445f4a,
  '1bed73b29b075973d37c814ad2c2c023': check_1bed73b29b075973d37c814ad2c2c023,
  '251ddf7c5a2ddd11f78030fda93f5a41': check_251ddf7c5a2ddd11f78030fda93f5a41,
  '7ccc2bee41544ef5d24b446f56dd6154': check_7ccc2bee41544ef5d24b446f56dd6154,
  'd79ced0dae002084653069ed27d4bba0': check_d79ced0dae002084653069ed27d4bba0,
  'cef7e0af95b3bd2116990a57f410941a': check_cef7e0af95b3bd2116990a57f410941a,
  '5697b98aabed7d40802f8be90458dd8c': check_5697b98aabed7d40802f8be90458dd8c,
  'a1d0227547dc42116747ffa25f88d5ba': check_a1d0227547dc42116747ffa25f88d5ba,
  '608cf862871584f88415bab41fe765ac': check_608cf862871584f88415bab41fe765ac,
};

const CHECK_OPTIONS = { allErrors: false, strict: true, allowUnionTypes: true, validateSchema: false };
function schemaHash(schema) {
    return createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32);
}

const Ajv = AjvModule.default;
let ajv;
const newAjv = () => new Ajv({ ...CHECK_OPTIONS, verbose: true, inlineRefs: false, code: { optimize: false } });
function checkOf(schema) {
    const precompiled = SCHEMA_CHECKS[schemaHash(schema)];
    if (precompiled !== undefined)
        return () => precompiled;
    let validate;
    return () => {
        if (validate === undefined) {
            validate = (ajv ??= newAjv()).compile(schema);
        }
        return validate;
    };
}
function compileSchema(schema) {
    const check = checkOf(schema);
    let explain;
    return (data, file) => {
        if (check()(data))
            return data;
        explain ??= (ajv ??= newAjv()).compile(schema);
        if (explain(data))
            return data;
        const error = explain.errors?.[0];
        if (error === undefined)
            throw new SchemaError(file, '', 'does not match its schema');
        throw schemaErrorFrom(error, file);
    };
}
function compileCheck(schema) {
    const check = checkOf(schema);
    return (data) => check()(data);
}
function schemaErrorFrom(error, file) {
    let pointer = error.instancePath;
    let reason;
    const schema = error.parentSchema;
    const title = typeof schema?.title === 'string' ? schema.title : undefined;
    switch (error.keyword) {
        case 'required': {
            pointer += `/${escapePointerSegment(String(error.params.missingProperty))}`;
            reason = 'required property is missing';
            break;
        }
        case 'additionalProperties': {
            pointer += `/${escapePointerSegment(String(error.params.additionalProperty))}`;
            const known = isRecord(schema?.properties) ? Object.keys(schema.properties) : [];
            reason = known.length > 0 ? `unknown property; expected one of: ${known.join(', ')}` : 'unknown property';
            break;
        }
        case 'enum': {
            const allowed = Array.isArray(error.params.allowedValues) ? error.params.allowedValues : [];
            reason = `must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(error.data)}`;
            break;
        }
        case 'const':
            reason = `must be ${JSON.stringify(error.params.allowedValue)}, got ${describeValue(error.data)}`;
            break;
        case 'type':
        case 'pattern':
        case 'minimum':
        case 'maximum':
        case 'exclusiveMinimum':
        case 'exclusiveMaximum':
        case 'minLength':
            reason = `${title !== undefined ? `must be ${title}` : (error.message ?? 'is invalid')}, got ${describeValue(error.data)}`;
            break;
        default:
            reason = error.message ?? `fails "${error.keyword}"`;
    }
    if (pointer.includes('~'))
        reason += ` (at ${readablePath(pointer)})`;
    return new SchemaError(file, shownPointer(pointer), reason);
}
function shownPointer(pointer) {
    const shown = replaceControlCharacters(pointer);
    return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
}
function escapePointerSegment(segment) {
    return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
function unescapePointerSegment(segment) {
    return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
function readablePath(pointer) {
    let out = '';
    for (const raw of pointer.split('/').slice(1)) {
        const segment = unescapePointerSegment(raw);
        if (/^\d+$/.test(segment))
            out += `[${segment}]`;
        else if (/^[A-Za-z_$][\w$]*$/.test(segment))
            out += out === '' ? segment : `.${segment}`;
        else
            out += `[${JSON.stringify(segment)}]`;
    }
    return out;
}
function describeValue(value) {
    if (value === undefined)
        return 'nothing';
    const text = JSON.stringify(value);
    if (Array.isArray(value))
        return text.length <= 40 ? `array ${text}` : 'an array';
    if (value !== null && typeof value === 'object')
        return 'an object';
    return text.length <= 60 ? text : `${text.slice(0, 57)}...`;
}
function isRecord(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
const MAX_JSON_DEPTH = 100;
function parseJson(text, file, countKeys = countJsonKeys) {
    return parseJsonCounted(text, file, countKeys).value;
}
function parseJsonCounted(text, file, countKeys) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    let value;
    try {
        value = JSON.parse(body);
    }
    catch (err) {
        throw strictProblem(body, file) ?? new InputError(`${file}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (keyTokens(body) === countKeys(value))
        return { value, keysCounted: true };
    const problem = strictProblem(body, file);
    if (problem !== null)
        throw problem;
    return { value, keysCounted: false };
}
function strictProblem(body, file) {
    const problem = scanJson(body, { strict: true });
    if (problem === null)
        return null;
    const { line, column } = lineColumn(body, problem.offset);
    return new InputError(`${file}:${line}:${column}: ${problem.kind === 'syntax' ? 'not valid JSON: ' : ''}${problem.reason}`);
}
function keyTokens(text) {
    let count = 0;
    for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
        let i = colon - 1;
        let c = text.charCodeAt(i);
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
            c = text.charCodeAt(--i);
        if (c === 0x22)
            count++;
    }
    return count;
}
function countJsonKeys(value) {
    let count = 0;
    const stack = [value];
    const depths = [0];
    while (stack.length > 0) {
        const item = stack.pop();
        const depth = depths.pop();
        if (item === null || typeof item !== 'object')
            continue;
        if (depth >= MAX_JSON_DEPTH - 1)
            return -1;
        if (Array.isArray(item)) {
            for (let i = 0; i < item.length; i++) {
                const element = item[i];
                if (element !== null && typeof element === 'object') {
                    stack.push(element);
                    depths.push(depth + 1);
                }
            }
            continue;
        }
        for (const key in item) {
            count++;
            const member = item[key];
            if (member !== null && typeof member === 'object') {
                stack.push(member);
                depths.push(depth + 1);
            }
        }
    }
    return count;
}
function lineColumn(text, offset) {
    let line = 1;
    let lineStart = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
        line++;
        lineStart = i + 1;
    }
    return { line, column: offset - lineStart + 1 };
}
const SMALL_OBJECT = 8;
function firstStart(container, name) {
    if (container.keys !== null)
        return container.keys.get(name);
    const names = container.names;
    const i = names.indexOf(name);
    return i === -1 ? undefined : container.starts[i];
}
function addKey(container, name, start) {
    if (container.keys !== null) {
        container.keys.set(name, start);
        return;
    }
    const names = container.names;
    names.push(name);
    container.starts.push(start);
    if (names.length > SMALL_OBJECT) {
        container.keys = new Map(names.map((n, i) => [n, container.starts[i]]));
        names.length = 0;
        container.starts.length = 0;
    }
}
var Next;
(function (Next) {
    Next[Next["Value"] = 0] = "Value";
    Next[Next["AfterValue"] = 1] = "AfterValue";
})(Next || (Next = {}));
function scanJson(text, options) {
    const n = text.length;
    let pos = 0;
    const stack = [];
    const segments = [];
    let problem = null;
    const fail = (expected) => {
        const word = /^[A-Za-z0-9_$]{2,20}/.exec(text.slice(pos, pos + 20))?.[0];
        const found = pos >= n ? 'end of file' : JSON.stringify(word ?? text[pos]);
        problem = { kind: 'syntax', offset: pos, reason: `expected ${expected}, found ${found}` };
        return null;
    };
    const skipWhitespace = () => {
        for (;;) {
            const c = text.charCodeAt(pos);
            if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
                pos++;
            else
                return;
        }
    };
    const isDigit = (c) => c >= 0x30 && c <= 0x39;
    const isHex = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    const string = () => {
        pos++;
        for (;;) {
            if (pos >= n)
                return fail('a closing \'"\'') ?? false;
            const c = text.charCodeAt(pos);
            if (c === 0x22) {
                pos++;
                return true;
            }
            if (c < 0x20)
                return fail('an escaped control character (\\n, \\t, ...) inside a string') ?? false;
            if (c === 0x5c) {
                pos++;
                const e = text.charCodeAt(pos);
                if (e === 0x75) {
                    pos++;
                    for (let i = 0; i < 4; i++, pos++)
                        if (!isHex(text.charCodeAt(pos)))
                            return fail('4 hex digits after \\u') ?? false;
                    continue;
                }
                if (!(e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
                    return fail('an escape such as \\" \\\\ \\n \\t or \\uXXXX') ?? false;
                }
            }
            pos++;
        }
    };
    const digits = (what) => {
        if (!isDigit(text.charCodeAt(pos)))
            return fail(what) ?? false;
        while (isDigit(text.charCodeAt(pos)))
            pos++;
        return true;
    };
    const number = () => {
        if (text.charCodeAt(pos) === 0x2d)
            pos++;
        if (text.charCodeAt(pos) === 0x30)
            pos++;
        else if (!digits('a digit'))
            return false;
        if (text.charCodeAt(pos) === 0x2e) {
            pos++;
            if (!digits('a digit after the decimal point'))
                return false;
        }
        const e = text.charCodeAt(pos);
        if (e === 0x65 || e === 0x45) {
            pos++;
            const sign = text.charCodeAt(pos);
            if (sign === 0x2b || sign === 0x2d)
                pos++;
            if (!digits('a digit in the exponent'))
                return false;
        }
        return true;
    };
    const literal = (word) => {
        if (!text.startsWith(word, pos))
            return fail('a JSON value') ?? false;
        pos += word.length;
        return true;
    };
    const open = (object) => {
        if (options.strict && stack.length >= MAX_JSON_DEPTH) {
            problem = { kind: 'depth', offset: pos, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels: no configuration, baseline or report needs that many` };
            return false;
        }
        stack.push({ object, names: object && options.strict ? [] : null, starts: [], keys: null, index: 0 });
        pos++;
        return true;
    };
    const key = (container) => {
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x22)
            return fail('a double-quoted property name') ?? false;
        const start = pos;
        if (!string())
            return false;
        if (container.names !== null) {
            const raw = text.slice(start + 1, pos - 1);
            const name = raw.includes('\\') ? JSON.parse(`"${raw}"`) : raw;
            const first = firstStart(container, name);
            if (first !== undefined) {
                const at = lineColumn(text, first);
                const where = `/${[...segments, name].map(escapePointerSegment).join('/')}`;
                problem = {
                    kind: 'duplicate',
                    offset: start,
                    reason: `duplicate key ${JSON.stringify(name)} at ${where} (first at ${at.line}:${at.column}): JSON keeps only the last one, so keep one of them (a merge conflict resolved by keeping both halves?)`,
                };
                return false;
            }
            addKey(container, name, start);
            segments.push(name);
        }
        else {
            segments.push('');
        }
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x3a)
            return fail('":" after a property name') ?? false;
        pos++;
        return true;
    };
    let next = Next.Value;
    while (problem === null) {
        if (next === Next.Value) {
            skipWhitespace();
            const c = text.charCodeAt(pos);
            if (c === 0x7b) {
                if (!open(true))
                    break;
                skipWhitespace();
                if (text.charCodeAt(pos) === 0x7d) {
                    pos++;
                    stack.pop();
                    next = Next.AfterValue;
                }
                else if (!key(stack[stack.length - 1]))
                    break;
                continue;
            }
            if (c === 0x5b) {
                if (!open(false))
                    break;
                skipWhitespace();
                if (text.charCodeAt(pos) === 0x5d) {
                    pos++;
                    stack.pop();
                    next = Next.AfterValue;
                }
                else
                    segments.push('0');
                continue;
            }
            let ok;
            if (c === 0x22)
                ok = string();
            else if (c === 0x2d || isDigit(c))
                ok = number();
            else if (c === 0x74)
                ok = literal('true');
            else if (c === 0x66)
                ok = literal('false');
            else if (c === 0x6e)
                ok = literal('null');
            else
                ok = fail('a JSON value') ?? false;
            if (!ok)
                break;
            next = Next.AfterValue;
            continue;
        }
        skipWhitespace();
        const container = stack[stack.length - 1];
        if (container === undefined) {
            if (pos < n)
                fail('end of file after the JSON value');
            break;
        }
        const c = text.charCodeAt(pos);
        if (container.object) {
            if (c === 0x2c) {
                pos++;
                segments.pop();
                if (!key(container))
                    break;
                next = Next.Value;
            }
            else if (c === 0x7d) {
                pos++;
                segments.pop();
                stack.pop();
            }
            else
                fail('"," or "}" after a property value');
        }
        else if (c === 0x2c) {
            pos++;
            segments[segments.length - 1] = String(++container.index);
            next = Next.Value;
        }
        else if (c === 0x5d) {
            pos++;
            segments.pop();
            stack.pop();
        }
        else
            fail('"," or "]" after an array element');
    }
    return problem;
}

export { parseJsonCounted as a, compileCheck as b, compileSchema as c, countJsonKeys as d, keyTokens as k, lineColumn as l, parseJson as p, scanJson as s };
