/** The part of jstat the bench uses (the package ships no types). */
declare module 'jstat' {
  const jstat: {
    studentt: {
      /** The quantile of Student's t distribution with `dof` degrees of freedom (fractional allowed). */
      inv(p: number, dof: number): number;
    };
  };
  export default jstat;
}
