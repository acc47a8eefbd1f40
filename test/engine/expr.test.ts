/**
 * parseExpr() fixtures: each case is an expression and the canonical form (showExpr) of the tree
 * it must parse to. The expected forms are written out by hand from the reference's rules
 * (macro-language.md §3), never produced by the parser.
 */
import { expect } from 'chai'
import { parseExpr, showExpr } from '../../engine/expr/index.js'

interface Case {
  /** The behaviour, as a sentence. */
  readonly name: string
  readonly expr: string
  readonly shows: string
  readonly vars?: boolean
}

const PRECEDENCE: readonly Case[] = [
  { name: 'power binds tighter than multiplication on its right', expr: 'a*b^c', shows: '(* a (^ b c))' },
  { name: 'power binds tighter than multiplication on its left', expr: 'a^b*c', shows: '(* (^ a b) c)' },
  { name: 'multiplication binds tighter than addition on its right', expr: 'a+b*c', shows: '(+ a (* b c))' },
  { name: 'multiplication binds tighter than addition on its left', expr: 'a*b+c', shows: '(+ (* a b) c)' },
  { name: 'division binds tighter than subtraction', expr: 'a/b-c', shows: '(- (/ a b) c)' },
  { name: 'division on the right of a subtraction is done first', expr: 'a-b/c', shows: '(- a (/ b c))' },
  { name: 'addition binds tighter than a comparison on its left', expr: 'a+b=c', shows: '(= (+ a b) c)' },
  { name: 'addition binds tighter than a comparison on its right', expr: 'a=b+c', shows: '(= a (+ b c))' },
  { name: 'comparisons bind tighter than and', expr: 'a<b&c>d', shows: '(& (< a b) (> c d))' },
  { name: 'comparisons bind tighter than or', expr: 'a=1|b=2', shows: '(| (= a 1) (= b 2))' },
  { name: 'a mix of every binary level nests by precedence', expr: 'a+b*c^d-e/f', shows: '(- (+ a (* b (^ c d))) (/ e f))' },
  { name: 'and/or come after comparisons and arithmetic', expr: 'x>1&y<2|z=3', shows: '(| (& (> x 1) (< y 2)) (= z 3))' },
  { name: 'a comparison of two sums groups each sum', expr: 'a+b>=c-d', shows: '(>= (+ a b) (- c d))' },
  { name: 'power of a product operand stays inside the product', expr: 'a*b^c^d', shows: '(* a (^ (^ b c) d))' },
  { name: 'white space does not change precedence', expr: 'a + b * c', shows: '(+ a (* b c))' },
  { name: 'spacing that suggests otherwise does not change precedence', expr: 'a+b  *  c', shows: '(+ a (* b c))' },
  { name: 'addition uses the + operator', expr: 'x+1', shows: '(+ x 1)' },
  { name: 'subtraction uses the - operator', expr: 'x-1', shows: '(- x 1)' },
  { name: 'multiplication uses the * operator', expr: 'x*2', shows: '(* x 2)' },
  { name: 'division uses the / operator', expr: 'x/2', shows: '(/ x 2)' },
  { name: 'power uses the ^ operator', expr: 'x^2', shows: '(^ x 2)' },
  { name: 'equality uses the = operator', expr: 'x=1', shows: '(= x 1)' },
  { name: 'inequality is the single token <>', expr: 'x<>1', shows: '(<> x 1)' },
  { name: 'less-than uses the < operator', expr: 'x<1', shows: '(< x 1)' },
  { name: 'greater-than uses the > operator', expr: 'x>1', shows: '(> x 1)' },
  { name: 'less-or-equal is the single token <=', expr: 'x<=1', shows: '(<= x 1)' },
  { name: 'greater-or-equal is the single token >=', expr: 'x>=1', shows: '(>= x 1)' },
  { name: 'and uses the & operator', expr: 'x&y', shows: '(& x y)' },
  { name: 'or uses the | operator', expr: 'x|y', shows: '(| x y)' },
]

const ASSOCIATIVITY: readonly Case[] = [
  { name: 'subtraction then addition associate to the left (p-q+r)', expr: 'p-q+r', shows: '(+ (- p q) r)' },
  { name: 'division then multiplication associate to the left (p/q*r)', expr: 'p/q*r', shows: '(* (/ p q) r)' },
  { name: 'multiplication then division associate to the left', expr: 'p*q/r', shows: '(/ (* p q) r)' },
  { name: 'addition then subtraction associate to the left', expr: 'p+q-r', shows: '(- (+ p q) r)' },
  { name: 'a chain of subtractions associates to the left', expr: 'a-b-c-d', shows: '(- (- (- a b) c) d)' },
  { name: 'a chain of divisions associates to the left', expr: 'a/b/c', shows: '(/ (/ a b) c)' },
  { name: 'power associates to the left (2^3^2 is 64)', expr: '2^3^2', shows: '(^ (^ 2 3) 2)' },
  { name: 'or then and share a level and associate to the left (a|b&c)', expr: 'a|b&c', shows: '(& (| a b) c)' },
  { name: 'and then or share a level and associate to the left', expr: 'a&b|c', shows: '(| (& a b) c)' },
  { name: 'a chain of ands associates to the left', expr: 'a&b&c', shows: '(& (& a b) c)' },
  { name: 'a chain of ors associates to the left', expr: 'a|b|c', shows: '(| (| a b) c)' },
  { name: 'comparisons chain to the left (a<b<c)', expr: 'a<b<c', shows: '(< (< a b) c)' },
  { name: 'equality and inequality chain to the left', expr: 'a=b<>c', shows: '(<> (= a b) c)' },
  { name: 'mixed ordering comparisons chain to the left', expr: 'a<=b>=c', shows: '(>= (<= a b) c)' },
  { name: 'alternating and/or chains strictly left to right', expr: 'a|b&c|d&e', shows: '(& (| (& (| a b) c) d) e)' },
]

const PARENTHESES: readonly Case[] = [
  { name: 'parentheses group a sum before a product', expr: '(a+b)*c', shows: '(* (+ a b) c)' },
  { name: 'parentheses on the right group before a product', expr: 'a*(b+c)', shows: '(* a (+ b c))' },
  { name: 'parentheses make and bind before or', expr: 'a|(b&c)', shows: '(| a (& b c))' },
  { name: 'parentheses make power right-associative when wanted', expr: '2^(3^2)', shows: '(^ 2 (^ 3 2))' },
  { name: 'redundant parentheses disappear', expr: '((a))', shows: 'a' },
  { name: 'deeply redundant parentheses around a sum disappear', expr: '(((a+b)))*c', shows: '(* (+ a b) c)' },
  { name: 'a parenthesised comparison compares with 30', expr: '(price+tax)>30', shows: '(> (+ price tax) 30)' },
  { name: 'parentheses with inner spaces parse the same', expr: '( a + b ) * c', shows: '(* (+ a b) c)' },
  { name: 'a parenthesised subtraction on the right is kept', expr: 'a-(b-c)', shows: '(- a (- b c))' },
  { name: 'a parenthesised division on the right is kept', expr: 'a/(b/c)', shows: '(/ a (/ b c))' },
]

const NOT: readonly Case[] = [
  { name: 'not takes everything to its right (reference example)', expr: '~p+q*r<s|t/u>v', shows: '(~ (| (< (+ p (* q r)) s) (> (/ t u) v)))' },
  { name: 'not at the start negates the whole conjunction', expr: '~x=1 & y=2', shows: '(~ (& (= x 1) (= y 2)))' },
  { name: 'not after and negates only what follows it', expr: 'a & ~b=c', shows: '(& a (~ (= b c)))' },
  { name: 'not after or negates what follows it', expr: 'a | ~b', shows: '(| a (~ b))' },
  { name: 'not after and swallows a later or', expr: 'a & ~b | c', shows: '(& a (~ (| b c)))' },
  { name: 'not after and swallows a later and', expr: 'a&~b&c', shows: '(& a (~ (& b c)))' },
  { name: 'double not nests', expr: '~~a', shows: '(~ (~ a))' },
  { name: 'a lone not negates its column', expr: '~a', shows: '(~ a)' },
  { name: 'not before parentheses still takes the rest of the expression', expr: '~(a)&b', shows: '(~ (& a b))' },
  { name: 'a parenthesised not is limited by its parentheses', expr: '(~a)&b', shows: '(& (~ a) b)' },
  { name: 'not inside a function argument ends at the semicolon', expr: 'f(~a;b)', shows: 'f((~ a), b)' },
  { name: 'not with spaces after it negates the rest', expr: '~ a & ~ b', shows: '(~ (& a (~ b)))' },
  { name: 'not is weaker than a comparison of a sum', expr: '~a+1=2', shows: '(~ (= (+ a 1) 2))' },
  {
    name: 'not of a call is the usual user idiom',
    expr: "(~beginswith_ci(x;'CRV')) & (~contains_ci(x;' fee '))",
    shows: "(& (~ beginswith_ci(x, 'CRV')) (~ contains_ci(x, ' fee ')))",
  },
  { name: 'not inside parentheses after an operator is allowed', expr: 'a=(~b)', shows: '(= a (~ b))' },
  { name: 'not of a list comparison negates the membership test', expr: "~state='NY' 'CA'", shows: "(~ (= state ['NY' 'CA']))" },
  { name: 'three nots in a row nest', expr: '~ ~ ~a', shows: '(~ (~ (~ a)))' },
]

const UNARY_MINUS: readonly Case[] = [
  { name: 'minus before a column is a negation', expr: '-a', shows: '(- a)' },
  { name: 'minus before a number literal binds tighter than power', expr: '-2^2', shows: '(^ -2 2)' },
  { name: 'minus before a column binds tighter than power', expr: '-a^2', shows: '(^ (- a) 2)' },
  { name: 'a negative exponent is a negative literal', expr: 'a^-2', shows: '(^ a -2)' },
  { name: 'a negated column can be an exponent', expr: 'a^-b', shows: '(^ a (- b))' },
  { name: 'two minuses before a column nest', expr: '--a', shows: '(- (- a))' },
  { name: 'minus before a negative literal negates it', expr: '- -1', shows: '(- -1)' },
  { name: 'minus after an operand is a subtraction', expr: 'a-1', shows: '(- a 1)' },
  { name: 'subtracting a negative literal with spaces', expr: 'a - -1', shows: '(- a -1)' },
  { name: 'subtracting a negative literal without spaces', expr: 'a--1', shows: '(- a -1)' },
  { name: 'multiplying by a negated column', expr: 'a*-b', shows: '(* a (- b))' },
  { name: 'a negated column is multiplied as a whole', expr: '-a*b', shows: '(* (- a) b)' },
  { name: 'minus before parentheses negates the group', expr: '-(a+b)', shows: '(- (+ a b))' },
  { name: 'minus before a call negates the call', expr: '-f(x)', shows: '(- f(x))' },
  { name: 'a negative decimal is one literal', expr: '-1.5', shows: '-1.5' },
  { name: 'a negative leading-dot decimal is one literal', expr: '-.5', shows: '-0.5' },
  { name: 'a space between minus and a number still gives a literal', expr: '- 5', shows: '-5' },
  { name: 'minus zero is zero', expr: '-0', shows: '0' },
  { name: 'a comparison with a negative literal', expr: 'x=-1', shows: '(= x -1)' },
  { name: 'a negated column compared with a negative literal', expr: '-x=-1', shows: '(= (- x) -1)' },
  { name: 'a number followed by minus and a number is a subtraction, not a list', expr: '1 -2', shows: '(- 1 2)' },
  { name: 'a negative literal minus a number is a subtraction', expr: '-2 -3', shows: '(- -2 3)' },
  { name: 'a negative shift count inside a call', expr: 'g_rshift(g;;;v;-1)', shows: 'g_rshift(g, _, _, v, -1)' },
  { name: 'minus before a date negates the date (the checker rejects it)', expr: '-3/15/03', shows: '(- 2003-03-15)' },
]

const LISTS: readonly Case[] = [
  { name: 'juxtaposed texts form a list on the right of =', expr: "state='NY' 'CA'", shows: "(= state ['NY' 'CA'])" },
  { name: 'juxtaposed texts form a list on the right of <>', expr: "upc <> '85249700848' '487'", shows: "(<> upc ['85249700848' '487'])" },
  { name: 'integers with leading zeros form a list of integers', expr: 'zip=01001 55957', shows: '(= zip [1001 55957])' },
  { name: 'three integers form a list', expr: 'x=1 2 3', shows: '(= x [1 2 3])' },
  { name: 'decimals form a list', expr: 'x=1.5 2.25', shows: '(= x [1.5 2.25])' },
  { name: 'a negative number may start a list', expr: 'x=-1 2', shows: '(= x [-1 2])' },
  { name: 'dates form a list', expr: 'd=3/15/03 12/31/2014', shows: '(= d [2003-03-15 2014-12-31])' },
  { name: 'times form a list', expr: 't=13:45 9:05:30', shows: '(= t [13:45:00 09:05:30])' },
  { name: 'thousands-comma numbers form a list', expr: 'x=1,000 2,000', shows: '(= x [1000 2000])' },
  { name: 'a list of mixed constant kinds parses (the checker judges it)', expr: "x='a' 1", shows: "(= x ['a' 1])" },
  { name: 'a list may stand alone', expr: "'NY' 'CA'", shows: "['NY' 'CA']" },
  { name: 'a list inside parentheses', expr: "(upc <> '85249700848' '487')", shows: "(<> upc ['85249700848' '487'])" },
  { name: 'list items may be separated by newlines and tabs', expr: "x = 'a'\t'b'\n'c'", shows: "(= x ['a' 'b' 'c'])" },
  { name: 'a list comparison is an operand of and', expr: "state='NY' 'CA' & x>1", shows: "(& (= state ['NY' 'CA']) (> x 1))" },
  { name: 'a list may be on the left of =', expr: "'NY' 'CA'=state", shows: "(= ['NY' 'CA'] state)" },
  { name: 'a list binds tighter than arithmetic (the checker judges it)', expr: 'x=1 2+3', shows: '(= x (+ [1 2] 3))' },
  { name: 'a list is a function argument', expr: "endswith(t;'monthly' 'weekly')", shows: "endswith(t, ['monthly' 'weekly'])" },
  { name: 'an empty text is a list item', expr: "x='' 'a'", shows: "(= x ['' 'a'])" },
  { name: 'a long list keeps every item in order', expr: 'x=1 2 3 4 5 6 7 8', shows: '(= x [1 2 3 4 5 6 7 8])' },
  { name: 'a list after <> without spaces round the operator', expr: 'x<>1 2', shows: '(<> x [1 2])' },
  { name: 'texts written without a space between them are one text with a quote', expr: "x='NY''CA'", shows: "(= x 'NY''CA')" },
  { name: 'a date and a time side by side form a list', expr: '3/15/03 13:45', shows: '[2003-03-15 13:45:00]' },
  { name: 'a list of texts holding spaces keeps them', expr: "x=' a ' 'b c'", shows: "(= x [' a ' 'b c'])" },
]

const CALLS: readonly Case[] = [
  { name: 'a call without arguments has none', expr: 'i_()', shows: 'i_()' },
  { name: 'a call with only spaces between the parentheses has none', expr: 'i_( )', shows: 'i_()' },
  { name: 'a lone semicolon gives two omitted arguments', expr: 'f(;)', shows: 'f(_, _)' },
  { name: 'an empty middle argument is omitted', expr: 'g_sum(g;;x)', shows: 'g_sum(g, _, x)' },
  { name: 'empty trailing arguments are omitted', expr: 'g_cumcnt(ticker;;)', shows: 'g_cumcnt(ticker, _, _)' },
  { name: 'all arguments may be omitted', expr: 'g_first1(;;)', shows: 'g_first1(_, _, _)' },
  { name: 'a space-separated column list is one argument', expr: 'g_sum(state city;;x)', shows: 'g_sum([state city], _, x)' },
  { name: 'a comma-separated column list is one argument', expr: 'g_cnt(a,b;)', shows: 'g_cnt([a b], _)' },
  { name: 'a column list of two ids', expr: 'g_cnt(transid upc;)', shows: 'g_cnt([transid upc], _)' },
  { name: 'a column list followed by a selection column and a value', expr: 'g_sum(state city;include;value)', shows: 'g_sum([state city], include, value)' },
  { name: 'a comma and a space between names', expr: 'g_cnt(a, b;)', shows: 'g_cnt([a b], _)' },
  { name: 'a space before a comma between names', expr: 'g_cnt(a ,b;)', shows: 'g_cnt([a b], _)' },
  { name: 'commas and spaces mixed in one column list', expr: 'g_cnt(a,b c;)', shows: 'g_cnt([a b c], _)' },
  { name: 'a column list as the first argument of splice', expr: "splice(name state;', ')", shows: "splice([name state], ', ')" },
  { name: 'a column list in the order position', expr: 'g_cumsum(g;;d t;x)', shows: 'g_cumsum(g, _, [d t], x)' },
  { name: 'a single name is a column, not a column list', expr: 'f(a)', shows: 'f(a)' },
  { name: 'two arguments are split by a semicolon', expr: 'max(price1;price2)', shows: 'max(price1, price2)' },
  {
    name: 'calls and expressions nest as arguments',
    expr: 'mod(min(col6;col2)+(col1/100);col3+2)',
    shows: 'mod((+ min(col6, col2) (/ col1 100)), (+ col3 2))',
  },
  { name: 'calls nest three deep', expr: 'f(g(h(x)))', shows: 'f(g(h(x)))' },
  { name: 'calls are operands of arithmetic', expr: 'f(a)+g(b)*2', shows: '(+ f(a) (* g(b) 2))' },
  { name: 'function and column names are lower-cased', expr: 'G_SUM(State;;X)', shows: 'g_sum(state, _, x)' },
  { name: 'a space between a function name and ( is allowed', expr: 'max (a;b)', shows: 'max(a, b)' },
  { name: 'omitted arguments on both sides of a value', expr: 'f(;;x;)', shows: 'f(_, _, x, _)' },
  { name: 'a thousands-comma number is a single argument', expr: 'f(1,234)', shows: 'f(1234)' },
  { name: 'a thousands-comma number after a semicolon', expr: 'f(x;1,234)', shows: 'f(x, 1234)' },
  { name: 'a thousands-comma decimal is a single argument', expr: 'f(12,345.67)', shows: 'f(12345.67)' },
  { name: 'a call result minus one', expr: 'g_rshift(state;sel;;i;0)-1', shows: '(- g_rshift(state, sel, _, i, 0) 1)' },
  { name: 'three omitted arguments before a value', expr: 'g_rank(first_state;;;sum_xsales)', shows: 'g_rank(first_state, _, _, sum_xsales)' },
  { name: 'a text delimiter among omitted arguments', expr: "g_splice(;;;path;',';)", shows: "g_splice(_, _, _, path, ',', _)" },
  { name: 'a text period code and a negative count', expr: "g_tshift(g;;date;'D';x;-1)", shows: "g_tshift(g, _, date, 'D', x, -1)" },
  {
    name: 'a selection expression and a call as arguments',
    expr: "r_mapjson('d*';rct_='a';strupcase(rcv_);)",
    shows: "r_mapjson('d*', (= rct_ 'a'), strupcase(rcv_), _)",
  },
  { name: 'an expression and a column list as arguments', expr: 'f(a+b;c d)', shows: 'f((+ a b), [c d])' },
  { name: 'integer dates as between bounds', expr: 'between(date;20160601;20160731)', shows: 'between(date, 20160601, 20160731)' },
  { name: 'date literals as between bounds', expr: 'between(date;1/1/14;12/31/14)', shows: 'between(date, 2014-01-01, 2014-12-31)' },
  { name: 'spaces around arguments are ignored', expr: 'f( a ; b )', shows: 'f(a, b)' },
  { name: 'arguments may be on separate lines', expr: 'f(\n  a;\n  b\n)', shows: 'f(a, b)' },
  { name: 'a name ending in an underscore is a column', expr: 'rcv_', shows: 'rcv_' },
  { name: 'a call with a parenthesised argument', expr: 'f((a))', shows: 'f(a)' },
  { name: 'a not of a comparison as an argument', expr: 'if(~a=1;x;y)', shows: 'if((~ (= a 1)), x, y)' },
  { name: 'a call as the operand of a comparison inside a call', expr: 'if(year(d)=2014;1;0)', shows: 'if((= year(d) 2014), 1, 0)' },
]

const REAL_WORLD: readonly Case[] = [
  { name: 'the first 8 rows per ticker', expr: 'g_cumcnt(ticker;;)<=8', shows: '(<= g_cumcnt(ticker, _, _) 8)' },
  { name: 'a rank by state', expr: 'g_rank(first_state;;;sum_xsales)', shows: 'g_rank(first_state, _, _, sum_xsales)' },
  { name: 'a date window with quoted date texts', expr: "between(date;'1/1/2014';'12/31/2014')", shows: "between(date, '1/1/2014', '12/31/2014')" },
  { name: 'a list exclusion in parentheses', expr: "(upc <> '85249700848' '487')", shows: "(<> upc ['85249700848' '487'])" },
  {
    name: 'two negated case-insensitive tests joined by and',
    expr: "(~beginswith_ci(posdesc;'CRV')) & (~contains_ci(posdesc;' fee '))",
    shows: "(& (~ beginswith_ci(posdesc, 'CRV')) (~ contains_ci(posdesc, ' fee ')))",
  },
  {
    name: 'a nested if on padded account numbers',
    expr: 'if(padright(account;4)=5391;1;if(padright(account;4)=5553;1;0))',
    shows: 'if((= padright(account, 4) 5391), 1, if((= padright(account, 4) 5553), 1, 0))',
  },
  { name: 'the first row of the worksheet', expr: 'i_()=1', shows: '(= i_() 1)' },
  { name: 'a parenthesised contains test', expr: "(contains(description;'STRAWBE'))", shows: "contains(description, 'STRAWBE')" },
  {
    name: 'endswith with a list of suffixes',
    expr: "endswith('sales_monthly';'monthly' 'weekly')=1",
    shows: "(= endswith('sales_monthly', ['monthly' 'weekly']) 1)",
  },
  { name: 'the very first row', expr: 'g_first1(;;)', shows: 'g_first1(_, _, _)' },
  { name: 'a group sum', expr: 'g_sum(g;;v)', shows: 'g_sum(g, _, v)' },
  { name: 'a running group sum', expr: 'g_cumsum(g;;;v)', shows: 'g_cumsum(g, _, _, v)' },
  { name: 'a simple threshold', expr: 'v>6', shows: '(> v 6)' },
  { name: 'year and month conditions', expr: 'year(date)=2014 & month(date)>=6', shows: '(& (= year(date) 2014) (>= month(date) 6))' },
  { name: 'an integer date comparison', expr: 'date>20140101', shows: '(> date 20140101)' },
  { name: 'the zero-based row index', expr: 'g_rshift(state;sel;;i;0)-1', shows: '(- g_rshift(state, sel, _, i, 0) 1)' },
  { name: 'a group count of two key columns', expr: 'g_cnt(transid upc;)>1', shows: '(> g_cnt([transid upc], _) 1)' },
  { name: 'a label with a backtick in text', expr: "'Sales By`Store'", shows: "'Sales By`Store'" },
]

const BLOCK_VARIABLES: readonly Case[] = [
  { name: 'a bare variable', expr: '@tbl', shows: '@tbl', vars: true },
  { name: 'a variable as a function argument', expr: 'qv(@search_string)', shows: 'qv(@search_string)', vars: true },
  {
    name: 'a variable field with a delimiter argument',
    expr: "str_to_lst(@tables_by_dates.paths;',')",
    shows: "str_to_lst(@tables_by_dates.paths, ',')",
    vars: true,
  },
  { name: 'variable names are lower-cased', expr: '@Tbl.Paths', shows: '@tbl.paths', vars: true },
  { name: 'a variable in arithmetic', expr: '@n+1', shows: '(+ @n 1)', vars: true },
  { name: 'two variables compared', expr: '@x=@y', shows: '(= @x @y)', vars: true },
  { name: 'a block-level endswith test', expr: "endswith('{x}x';'monthly' 'weekly')=1", shows: "(= endswith('{x}x', ['monthly' 'weekly']) 1)", vars: true },
  { name: 'an expression without variables parses the same with vars on', expr: 'a+1', shows: '(+ a 1)', vars: true },
]

const MULTI_LINE: readonly Case[] = [
  { name: 'newlines between operands and operators are white space', expr: 'a\n+\nb', shows: '(+ a b)' },
  { name: 'an if spread over lines', expr: 'if(x;\n  1;\n  0)', shows: 'if(x, 1, 0)' },
  { name: 'a text literal keeps its newline', expr: "'line1\nline2'=x", shows: "(= 'line1\nline2' x)" },
  { name: 'tabs are white space', expr: '\tx\t=\t1', shows: '(= x 1)' },
  { name: 'carriage-return line ends are white space', expr: 'a\r\n& b', shows: '(& a b)' },
  { name: 'leading and trailing blank lines are ignored', expr: '\n\n  a \n\n', shows: 'a' },
  { name: 'a not spanning lines still takes the rest', expr: '~a=1\n&\nb=2', shows: '(~ (& (= a 1) (= b 2)))' },
]

const CONSTANTS: readonly Case[] = [
  { name: 'an integer', expr: '12', shows: '12' },
  { name: 'a decimal', expr: '24.99', shows: '24.99' },
  { name: 'a decimal with a leading dot', expr: '.5', shows: '0.5' },
  { name: 'a whole decimal keeps its point', expr: '1.0', shows: '1.0' },
  { name: 'a decimal with thousands commas', expr: '12,345.67', shows: '12345.67' },
  { name: 'an integer with two thousands commas', expr: '1,234,567', shows: '1234567' },
  { name: 'zero', expr: '0', shows: '0' },
  { name: 'leading zeros are dropped from an integer', expr: '007', shows: '7' },
  { name: 'an eight-digit integer date', expr: '20171105', shows: '20171105' },
  { name: 'a doubled quote inside text', expr: "'it''s'", shows: "'it''s'" },
  { name: 'a backslashed quote inside text', expr: "'it\\'s'", shows: "'it''s'" },
  { name: 'an empty text', expr: "''", shows: "''" },
  { name: 'another backslash is kept as it is', expr: "'a\\b'", shows: "'a\\b'" },
  { name: 'a date with a two-digit year', expr: '3/15/03', shows: '2003-03-15' },
  { name: 'a date with a four-digit year', expr: '3/15/1903', shows: '1903-03-15' },
  { name: 'two-digit year 49 is 2049', expr: '1/1/49', shows: '2049-01-01' },
  { name: 'two-digit year 50 is 1950', expr: '1/1/50', shows: '1950-01-01' },
  { name: 'two-digit year 99 is 1999', expr: '12/31/99', shows: '1999-12-31' },
  { name: 'two-digit year 00 is 2000', expr: '1/1/00', shows: '2000-01-01' },
  { name: 'February 29 of a leap century year', expr: '2/29/2000', shows: '2000-02-29' },
  { name: 'February 29 of a two-digit leap year', expr: '2/29/04', shows: '2004-02-29' },
  { name: 'a date with zero-padded month and day', expr: '01/02/03', shows: '2003-01-02' },
  { name: 'a time of hours and minutes', expr: '13:45', shows: '13:45:00' },
  { name: 'a time with seconds', expr: '9:05:07', shows: '09:05:07' },
  { name: 'midnight', expr: '0:00', shows: '00:00:00' },
  { name: 'the last second of the day', expr: '23:59:59', shows: '23:59:59' },
  { name: 'a capitalised column name', expr: 'Sales', shows: 'sales' },
  { name: 'a function-like name without parentheses is a column', expr: 'i_', shows: 'i_' },
  { name: 'a name with digits and underscores', expr: 'x1_2', shows: 'x1_2' },
  { name: 'a date divided with spaces is a division', expr: '3 / 15 / 03', shows: '(/ (/ 3 15) 3)' },
  { name: 'a one-digit third part is a division, not a date', expr: '6/2/3', shows: '(/ (/ 6 2) 3)' },
  { name: 'a three-digit first part is a division, not a date', expr: '100/5/20', shows: '(/ (/ 100 5) 20)' },
  { name: 'a date compared with a column', expr: 'x=3/15/03', shows: '(= x 2003-03-15)' },
  { name: 'a column divided by a date-shaped literal reads the date', expr: 'x/3/15/03', shows: '(/ x 2003-03-15)' },
]

const GROUPS: readonly (readonly [string, readonly Case[]])[] = [
  ['precedence', PRECEDENCE],
  ['associativity', ASSOCIATIVITY],
  ['parentheses', PARENTHESES],
  ['~ (not)', NOT],
  ['unary minus', UNARY_MINUS],
  ['lists', LISTS],
  ['calls and column lists', CALLS],
  ['real-world expressions (reference §9)', REAL_WORLD],
  ['block variables (vars on)', BLOCK_VARIABLES],
  ['multi-line text', MULTI_LINE],
  ['constants and names', CONSTANTS],
]

describe('parseExpr()', () => {
  for (const [title, cases] of GROUPS) {
    describe(title, () => {
      for (const c of cases) {
        it(`parses ${JSON.stringify(c.expr)} as ${c.shows} (${c.name})`, () => {
          expect(showExpr(parseExpr(c.expr, { vars: c.vars }))).to.equal(c.shows)
        })
      }
    })
  }
})
